export * from "./content";
export * from "./message";
export { Conversation } from "./conversation";
