import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the document being rendered on the server (entry.server
 * provides it). In the browser it is undefined: the inline scripts it guards have already run, and
 * browsers hide nonce values from scripts anyway.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
