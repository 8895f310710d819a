// Types of build-server.mjs for the TypeScript harnesses that start the server bundle.
export declare const SERVER_ENTRY: string;
export declare function serverBundleStale(): boolean;
export declare function buildServer(options?: { force?: boolean }): Promise<string>;
export declare function newest(target: string): number;
