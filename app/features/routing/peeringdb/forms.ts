/** The PeeringDB section's upload form (shared by the screen and the server's parser). */
export const PEERINGDB_UPLOAD_FIELD = "peeringdbFile";
/** The `intent` of the section's form: import a PeeringDB JSON file. */
export const PEERINGDB_INTENT = "peeringdb-import";
