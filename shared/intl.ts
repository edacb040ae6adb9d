/**
 * One `Intl.DateTimeFormat` per locale and options, reused everywhere: building a format costs far more than
 * formatting with it, and the surfaces format thousands of dates per answer.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}
