/**
 * User-visible texts of the spec, verbatim (shell §2, §5, §8; looking glass §2, §5, §8).
 * Every screen takes its wording from here so the contract lives in one place.
 */
export const MESSAGES = {
  wrongCredentials: "Username or password is incorrect.",
  networkError: "Could not connect to server. Please check your internet connection and refresh the page.",
  networkErrorTitle: "Network error",
  networkInterrupted: "The network connection to the server was interrupted unexpectedly.",
  chunkLoading: "Parts of the application could not be loaded. Please reload the page or contact support.",
  permissionDenied: "You do not have permission to perform this action.",
  noPermissions: "Your account has no permissions. Please contact an administrator.",
  noPermissionsTitle: "No Permissions",
  serverError: "The application server has encountered an error.",
  unknownError: "Some kind of error occurred, Sorry! Please refresh the page.",
  noDataForSearch: "No data found for search. Try with other parameters.",
  /** Shell §5: the Border/Core Planner heatmap refuses ranges longer than MAX_HEATMAP_DAYS (features/planners/figures.ts). */
  heatmapRangeTooLong: "The timerange must be small enough for the daily maximum utilization heatmap.",
  tokenInvalid: "The entered token is invalid.",
  userCreation: "Provided email already exists or is invalid.",
  emailFormat: "The e-mail address has to be in a valid format.",
  peeringDbNotFound: "The requested ASN was not found in PeeringDB.",
  groupSwitchFailed: "The application failed to set the Group.",
  sessionExpired: "You were logged out due to inactivity. Please log in again to continue.",
  /** Account deactivated: a message with a contact link (shell §8; wording not shown there). */
  accountDeactivated: "Your account has been deactivated. Please contact the operator of this site if you need access again:",
  /** E-mail verification failed, with the hint that the link may have expired or the account is already active (shell §8; wording not shown there). */
  emailVerificationFailed: "E-mail verification failed.",
  emailVerificationHint:
    "The link may have expired or has already been used, or the account is already active. Request a new link, or log in if you have already chosen your password.",
  missingProfile: "Please add a profile to the user first.",
  emptyDatabase: "Needed Database is empty or does not exist",
  emptyTableExport: "Table is empty, nothing to export",
  /** Tables: the export is disabled while the table is pivoted (shell §2; wording not given there). */
  exportWhilePivoted: "Export is not available while the table is pivoted.",
  /** The column picker dialog (shell §2) and its rule "needs at least one column selected" (shell §5). */
  selectColumnTitle: "Select a column",
  selectAtLeastOneColumn: "Please select at least one column.",
  /** Percentage-difference tooltips mention the cut-off of +/-1000% (shell §9). */
  percentDifferenceCutOff: "Difference to the previous period of equal length; percentages are cut off at +/-1000%.",
  notFoundTitle: "We are sorry, the page you requested cannot be found.",
  notFoundText: "The URL may be misspelled or the page you are looking for is no longer available.",
  lookingGlassOffline: "The looking glass is currently offline, please try again later.",
  lookingGlassBeforeSubmit: 'To view the data, click the "Submit" button above.',
  resultVanished: "Could not complete the result. Please reload the Page.",
  invalidIpAddress: "Invalid IP address",
  invalidNetwork: "Network is not a CIDR or IP",
  permissionDeniedShort: "permission denied",
  /** The copy actions' toast (looking glass §8 "copied to clipboard"; wording not given there). */
  copiedToClipboard: "Copied to clipboard.",
  copyFailed: "The browser did not allow copying. Select the text and copy it instead.",
  // Dialog title (shell §2).
  advancedQueryFilter: "Advanced query filter",
  // The date picker (shell §5, looking glass §5): its title and error message (wording not in the spec).
  datePickerTitle: "Time range",
  datePickerError: "The start must not be after the end, and the end must not be after the newest data.",
  // Locked dimensions of delegated users (shell §5; wording not in the spec).
  filterLockedAdd: "Filters cannot be added to a locked dimension.",
  filterLockedRemove: "The filters of a locked dimension cannot be removed.",
} as const;

/** The date picker's toast for a start outside the available data (looking glass §5; wording not in the spec). */
export const rangeStartOutOfRange = (start: string, first: string, last: string) =>
  `The start ${start} is outside the available data (${first} – ${last}).`;

/** The date picker's toast for an end outside the available data (looking glass §5; wording not in the spec). */
export const rangeEndOutOfRange = (end: string, first: string, last: string) =>
  `The end ${end} is outside the available data (${first} – ${last}).`;

/** 'The previously set filter [x] was removed since its negation was added.' */
export const negatedFilterReplaced = (filter: string) => `The previously set filter ${filter} was removed since its negation was added.`;

/** '{value} is not a valid {name} input' */
export const invalidInput = (value: string, name: string) => `${value} is not a valid ${name} input`;

/** "Your search had N results, only the first M will be shown. Try a more specific query." */
export const resultsLimited = (total: number, shown: number) =>
  `Your search had ${total} results, only the first ${shown} will be shown. Try a more specific query.`;

export const prefixAggregationRange = (version: 4 | 6) =>
  `Please type a prefix between /1 and /${version === 4 ? 32 : 128} to aggregate the data`;
export const wrongPrefixFormat = (version: 4 | 6) => `Wrong IPv${version} prefix format`;
