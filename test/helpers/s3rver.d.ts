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
