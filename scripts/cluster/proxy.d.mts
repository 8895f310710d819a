// Types of proxy.mjs.
export declare function startProxy(options: { backends: string[]; port?: number; host?: string }): Promise<{
  url: string;
  port: number;
  served: number[];
  close(): Promise<void>;
}>;
