/** The community labels' constants shared by their screen and its server side (isomorphic). */

export const ROUTING_DATA_PATH = "/site-settings/routing-data";
/** The section's anchor on the routing data page: redirects land on it. */
export const COMMUNITY_LABELS_ANCHOR = "community-labels";
/** `?edit_label=<id>` opens a label in the form. */
export const EDIT_LABEL_PARAM = "edit_label";
export const LABEL_MAX_LENGTH = 100;
