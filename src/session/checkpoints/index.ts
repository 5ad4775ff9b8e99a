export { blobDir, BlobStore, sha256 } from "./blob-store";
export { collectBlobs, type Collected, listBlobs } from "./blobs";
export { type FilePlan, type FileState, planFiles, touches, unkept, type Version, withChildren } from "./file-states";
