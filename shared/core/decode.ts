/** UTF-8 decoding that also works where `TextDecoder` is missing (Apps Script's V8). */
export function decodeUtf8(bytes: Uint8Array): string {
  const TD = (globalThis as { TextDecoder?: new () => { decode(b: Uint8Array): string } }).TextDecoder;
  if (TD) return new TD().decode(bytes);
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i++] as number;
    let cp: number;
    if (b < 0x80) cp = b;
    else if (b < 0xe0) cp = ((b & 0x1f) << 6) | ((bytes[i++] as number) & 0x3f);
    else if (b < 0xf0)
      cp = ((b & 0x0f) << 12) | (((bytes[i++] as number) & 0x3f) << 6) | ((bytes[i++] as number) & 0x3f);
    else
      cp =
        ((b & 0x07) << 18) |
        (((bytes[i++] as number) & 0x3f) << 12) |
        (((bytes[i++] as number) & 0x3f) << 6) |
        ((bytes[i++] as number) & 0x3f);
    out += String.fromCodePoint(cp);
  }
  return out;
}

export function bodyText(body: Uint8Array | string): string {
  return typeof body === 'string' ? body : decodeUtf8(body);
}
