/** Footer link rows the default style form offers and its action reads back (rows left empty are dropped). */
export const MAX_FOOTER_ROWS = 20;
