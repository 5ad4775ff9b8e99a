export { blobDir, BlobStore, sha256 } from "./blob-store";
export { collectBlobs, type Collected, listBlobs } from "./blobs";
export { type FilePlan, planFiles, sameVersion, touches, type Version } from "./file-states";
