/** The build's version, so cached translation files change with each build. */
declare const __BUILD_VERSION__: string
