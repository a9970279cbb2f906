import { z } from 'zod'
import { email } from '#app/utils/forms.ts'

export const schema = z.object({ email })
