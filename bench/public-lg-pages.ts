/**
 * The public Looking Glass pages a visitor can get, before a query and after one (an answer, a
 * second page of it, no data, an invalid term), each with a piece of HTML that proves the page is
 * that one. Measured by bench:public-lg and held to the 30 KB budget by
 * tests/e2e/public-lookingglass-page.e2e.ts.
 */
export const lg = (params: Record<string, string>) => `/public/lookingglass?${new URLSearchParams(params)}`;
const ALL = '["all"]';

export const PUBLIC_PAGES: { name: string; url: string; expect: string }[] = [
  { name: "form (before a query)", url: "/public/lookingglass", expect: "To view the data, click the" },
  {
    name: "IP prefix, all vantage points",
    url: lg({ selectedVantagePoints: ALL, queryType: "IpPrefixQuery", queryTerm: "203.0.113.0/24" }),
    expect: 'data-testid="lookingglass-table"',
  },
  {
    name: "AS path 3356 *, page 1",
    url: lg({ selectedVantagePoints: ALL, queryType: "AsPathQuery", queryTerm: "3356 *" }),
    expect: 'aria-label="Pages"',
  },
  {
    name: "AS path 3356 *, page 2",
    url: lg({ selectedVantagePoints: ALL, queryType: "AsPathQuery", queryTerm: "3356 *", page: "2" }),
    expect: ", page 2 of ",
  },
  {
    name: "no data",
    url: lg({ selectedVantagePoints: ALL, queryType: "IpPrefixQuery", queryTerm: "192.0.2.77" }),
    expect: "None of the selected vantage points has data for this search.",
  },
  {
    name: "invalid term",
    url: lg({ selectedVantagePoints: ALL, queryType: "IpPrefixQuery", queryTerm: "203.0.113.300" }),
    expect: "Network is not a CIDR or IP",
  },
];

/** Every vantage point, as the URL names them. */
export const ALL_VANTAGE_POINTS = ALL;
