// s3rver ships no types; what the tests use of it (test/helpers/s3.ts).
declare module "s3rver" {
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** S3 event notifications: `event` for each object stored or removed. */
    on(event: "event", listener: (event: any) => void): this;
  }
}

// Its file store, whose `putObject` test/helpers/s3.ts replaces.
declare module "s3rver/lib/stores/filesystem.js" {
  export default class FilesystemStore {
    getResourcePath(bucket: string, key: string, resource: string): string;
    putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
    putObject(object: unknown): Promise<{ size: number; md5: string }>;
  }
}
