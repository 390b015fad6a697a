/** The RPKI section's form fields (shared by the screen and the server's parser). */
export const ROA_UPLOAD_FIELD = "roaFile";
/** The `intent` of the section's forms: upload a VRP file, remove the file's VRPs. */
export const RPKI_INTENTS = ["rpki-import", "rpki-clear"] as const;
export type RpkiIntent = (typeof RPKI_INTENTS)[number];
