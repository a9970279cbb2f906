import { createContext, useContext } from 'react'

const NonceContext = createContext('')

/** Provides this response's CSP nonce on the server; in the browser it is empty, as it should be. */
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
