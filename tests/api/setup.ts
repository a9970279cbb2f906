import { afterAll } from 'vitest'
import { closeTestDb } from './harness.ts'

afterAll(closeTestDb)
