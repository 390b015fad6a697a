export * from "./auth";
export * from "./network";
