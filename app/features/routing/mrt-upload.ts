/** The upload form's file field (shared by the screen and the server's parser). */
export const UPLOAD_FIELD = "file";
