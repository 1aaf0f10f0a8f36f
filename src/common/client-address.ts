/**
 * The peer address of a request, recorded by the server's fetch handler before routing (Elysia
 * routes never see Bun's server object when we compose the handler ourselves).
 */
const addresses = new WeakMap<Request, string>();

export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

export function clientAddress(request: Request): string {
  return addresses.get(request) ?? "unknown";
}
