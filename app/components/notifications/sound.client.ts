let audio: AudioContext | undefined

/**
 * A short two-tone chime made by Web Audio (no file to load). A browser that allows no sound before the
 * member has touched the page stays silent: the bell and the toast still say it.
 */
export function playNotificationSound() {
	try {
		audio ??= new AudioContext()
		void audio.resume().catch(() => {})
		const start = audio.currentTime
		for (const [offset, frequency] of [
			[0, 880],
			[0.12, 1320],
		] as const) {
			const tone = audio.createOscillator()
			const volume = audio.createGain()
			tone.frequency.value = frequency
			volume.gain.setValueAtTime(0.0001, start + offset)
			volume.gain.exponentialRampToValueAtTime(0.12, start + offset + 0.02)
			volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.25)
			tone.connect(volume).connect(audio.destination)
			tone.start(start + offset)
			tone.stop(start + offset + 0.3)
		}
	} catch (error) {
		console.warn('The notification sound could not play', error)
	}
}
