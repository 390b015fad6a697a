export * from "./auth";
export * from "./network";
export * from "./account";
export * from "./tags";
export * from "./jobs";
export * from "./collector";
export * from "./routing";
export * from "./rpki";
