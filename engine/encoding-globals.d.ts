/**
 * The WHATWG Encoding API exists in every runtime the engine targets (browsers, workers, Node),
 * but TypeScript declares it with the DOM library, which the engine does not load. Only what the
 * engine uses is declared here.
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}
