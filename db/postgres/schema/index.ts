export * from "./auth";
export * from "./network";
export * from "./account";
