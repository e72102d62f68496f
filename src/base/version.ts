declare const WICKET_VERSION: string | undefined;

/** wicket's version, set by the build; running the sources, a development marker. */
export const VERSION = typeof WICKET_VERSION === 'string' ? WICKET_VERSION : '0.0.0-dev';
