/**
 * Neighbour autonomous systems of the fictional demo operator (AS 64500, a
 * documentation ASN) used by the deterministic demo network generator.
 *
 * Pure data: every ASN below is a real, well-known network with its real
 * number and common short name. Prefixes are real announced space only for
 * well-known networks; an empty list means the generator allocates synthetic
 * space for that family. Weights are relative traffic shares (Zipf-like:
 * content heavy, tail light); everything ranked beyond ~200 by weight is the
 * small tail that gets folded into "Others".
 */

export type AsCategory = "transit" | "content" | "cdn" | "eyeball" | "hosting" | "enterprise" | "education" | "customer";
/** How the AS reaches the operator: a transit provider, a private interconnect, a peer at an IX,
 *  a downstream customer, or not directly (only via transit/peers: "remote"). */
export type AsConnection = "transit" | "pni" | "ix" | "customer" | "remote";
export type DemoAs = {
  asn: number;
  name: string;          // the network's common short name, e.g. "Netflix", "Google", "Deutsche Telekom"
  country: string;       // ISO 3166 alpha-2 of the registration
  category: AsCategory;
  connection: AsConnection;
  /** Relative share of the traffic this AS sends or receives (content heavy, tail light). Positive number. */
  weight: number;
  /** The application its traffic counts as, e.g. "Netflix", "YouTube", "Facebook", "Steam" (only where it is clear). */
  application?: string;
  /** The delivery infrastructure, e.g. "Akamai", "Cloudflare", "Amazon CloudFront", "Google Cloud" (CDNs, clouds). */
  infrastructure?: string;
  /** Announced prefixes: real ones for well-known networks where you are confident; otherwise leave empty
   *  and the generator allocates synthetic space. At most 4 per family. */
  prefixes4: string[];
  prefixes6: string[];
};

export const OPERATOR_ASN = 64500;
export const OPERATOR_NAME = "flowlens Demo Carrier";

export const DEMO_ASES: DemoAs[] = [
  // --- Upstream transit providers (the operator buys transit from these) ---
  { asn: 3356, name: "Lumen", country: "US", category: "transit", connection: "transit", weight: 60, prefixes4: ["4.0.0.0/9"], prefixes6: [] },
  { asn: 1299, name: "Arelion", country: "SE", category: "transit", connection: "transit", weight: 55, prefixes4: ["62.115.0.0/16"], prefixes6: [] },
  { asn: 174, name: "Cogent", country: "US", category: "transit", connection: "transit", weight: 40, prefixes4: ["38.0.0.0/8"], prefixes6: ["2001:550::/32"] },
  { asn: 2914, name: "NTT", country: "US", category: "transit", connection: "transit", weight: 35, prefixes4: ["129.250.0.0/16"], prefixes6: ["2001:418::/32"] },

  // --- Hyperscale content and CDNs on private interconnects (PNI) ---
  { asn: 15169, name: "Google", country: "US", category: "content", connection: "pni", weight: 1000, application: "YouTube", prefixes4: ["8.8.8.0/24", "142.250.0.0/15", "172.217.0.0/16", "216.58.192.0/19"], prefixes6: ["2001:4860::/32", "2a00:1450::/32", "2607:f8b0::/32", "2404:6800::/32"] },
  { asn: 2906, name: "Netflix", country: "US", category: "content", connection: "pni", weight: 900, application: "Netflix", prefixes4: ["45.57.0.0/17", "23.246.0.0/18", "198.38.96.0/19", "108.175.32.0/20"], prefixes6: ["2a00:86c0::/32"] },
  { asn: 20940, name: "Akamai", country: "NL", category: "cdn", connection: "pni", weight: 700, infrastructure: "Akamai", prefixes4: ["2.16.0.0/13", "92.122.0.0/15", "95.100.0.0/15"], prefixes6: ["2a02:26f0::/29"] },
  { asn: 32934, name: "Meta", country: "US", category: "content", connection: "pni", weight: 600, application: "Facebook", prefixes4: ["157.240.0.0/16", "31.13.64.0/18", "179.60.192.0/22", "185.60.216.0/22"], prefixes6: ["2a03:2880::/32"] },
  { asn: 16509, name: "Amazon", country: "US", category: "hosting", connection: "pni", weight: 500, infrastructure: "Amazon Web Services", prefixes4: ["3.0.0.0/9", "52.0.0.0/11", "54.144.0.0/12"], prefixes6: ["2600:1f00::/24"] },
  { asn: 13335, name: "Cloudflare", country: "US", category: "cdn", connection: "pni", weight: 450, infrastructure: "Cloudflare", prefixes4: ["1.1.1.0/24", "104.16.0.0/13", "172.64.0.0/13", "162.158.0.0/15"], prefixes6: ["2606:4700::/32", "2400:cb00::/32", "2803:f800::/32", "2a06:98c0::/29"] },
  { asn: 8075, name: "Microsoft", country: "US", category: "content", connection: "pni", weight: 400, infrastructure: "Microsoft Azure", prefixes4: ["13.64.0.0/11", "40.64.0.0/10", "52.224.0.0/11", "104.40.0.0/13"], prefixes6: ["2a01:111::/32", "2603:1000::/24"] },
  { asn: 714, name: "Apple", country: "US", category: "content", connection: "pni", weight: 300, application: "Apple", prefixes4: ["17.0.0.0/8"], prefixes6: [] },

  // --- Content networks peering at the IXs ---
  { asn: 396986, name: "ByteDance", country: "US", category: "content", connection: "ix", weight: 180, application: "TikTok", prefixes4: [], prefixes6: [] },
  { asn: 32590, name: "Valve", country: "US", category: "content", connection: "ix", weight: 150, application: "Steam", prefixes4: ["155.133.224.0/19", "162.254.192.0/21", "208.64.200.0/22"], prefixes6: [] },
  { asn: 46489, name: "Twitch", country: "US", category: "content", connection: "ix", weight: 80, application: "Twitch", prefixes4: ["185.42.204.0/22"], prefixes6: [] },
  { asn: 30103, name: "Zoom", country: "US", category: "content", connection: "ix", weight: 45, application: "Zoom", prefixes4: ["170.114.0.0/16", "206.247.0.0/16"], prefixes6: ["2620:123:2000::/40"] },
  { asn: 6185, name: "Apple Austin", country: "US", category: "content", connection: "ix", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 57976, name: "Blizzard", country: "US", category: "content", connection: "ix", weight: 30, application: "Battle.net", prefixes4: [], prefixes6: [] },
  { asn: 36040, name: "YouTube", country: "US", category: "content", connection: "ix", weight: 30, prefixes4: [], prefixes6: [] },
  { asn: 138699, name: "TikTok", country: "SG", category: "content", connection: "remote", weight: 30, prefixes4: [], prefixes6: [] },
  { asn: 40027, name: "Netflix Streaming Services", country: "US", category: "content", connection: "ix", weight: 25, application: "Netflix", prefixes4: [], prefixes6: [] },
  { asn: 8403, name: "Spotify", country: "SE", category: "content", connection: "ix", weight: 25, application: "Spotify", prefixes4: [], prefixes6: [] },
  { asn: 6507, name: "Riot Games", country: "US", category: "content", connection: "ix", weight: 25, application: "Riot Games", prefixes4: [], prefixes6: [] },
  { asn: 14907, name: "Wikimedia", country: "US", category: "content", connection: "ix", weight: 20, application: "Wikipedia", prefixes4: ["208.80.152.0/22", "91.198.174.0/24"], prefixes6: ["2620:0:860::/46", "2a02:ec80::/32"] },
  { asn: 8068, name: "Microsoft Online", country: "US", category: "content", connection: "ix", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 22697, name: "Roblox", country: "US", category: "content", connection: "ix", weight: 20, application: "Roblox", prefixes4: [], prefixes6: [] },
  { asn: 13445, name: "Cisco Webex", country: "US", category: "content", connection: "ix", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 13414, name: "Twitter", country: "US", category: "content", connection: "ix", weight: 15, prefixes4: ["104.244.40.0/21", "199.16.156.0/22", "199.59.148.0/22"], prefixes6: [] },
  { asn: 19679, name: "Dropbox", country: "US", category: "content", connection: "ix", weight: 15, prefixes4: ["162.125.0.0/16"], prefixes6: [] },
  { asn: 14413, name: "LinkedIn", country: "US", category: "content", connection: "ix", weight: 12, prefixes4: [], prefixes6: [] },
  { asn: 62041, name: "Telegram", country: "GB", category: "content", connection: "ix", weight: 12, prefixes4: [], prefixes6: [] },
  { asn: 10310, name: "Yahoo", country: "US", category: "content", connection: "ix", weight: 10, prefixes4: ["98.136.0.0/14"], prefixes6: ["2001:4998::/32"] },
  { asn: 36459, name: "GitHub", country: "US", category: "content", connection: "ix", weight: 10, prefixes4: ["140.82.112.0/20", "192.30.252.0/22"], prefixes6: [] },
  { asn: 41231, name: "Canonical", country: "GB", category: "content", connection: "ix", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 43996, name: "Booking.com", country: "NL", category: "content", connection: "ix", weight: 5, prefixes4: [], prefixes6: [] },

  // --- Content networks reached only via transit/peers ---
  { asn: 14340, name: "Salesforce", country: "US", category: "content", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 13238, name: "Yandex", country: "RU", category: "content", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 17012, name: "PayPal", country: "US", category: "content", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 47541, name: "VK", country: "RU", category: "content", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 47764, name: "Mail.ru", country: "RU", category: "content", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 7941, name: "Internet Archive", country: "US", category: "content", connection: "remote", weight: 3, prefixes4: ["207.241.224.0/20"], prefixes6: [] },

  // --- CDNs peering at the IXs ---
  { asn: 54113, name: "Fastly", country: "US", category: "cdn", connection: "ix", weight: 200, infrastructure: "Fastly", prefixes4: ["151.101.0.0/16", "199.232.0.0/16"], prefixes6: ["2a04:4e40::/32", "2a04:4e42::/32"] },
  { asn: 16625, name: "Akamai Technologies", country: "US", category: "cdn", connection: "ix", weight: 150, infrastructure: "Akamai", prefixes4: ["23.32.0.0/11", "23.192.0.0/11", "184.24.0.0/13"], prefixes6: ["2600:1400::/24"] },
  { asn: 22822, name: "Edgio", country: "US", category: "cdn", connection: "ix", weight: 60, infrastructure: "Edgio", prefixes4: [], prefixes6: [] },
  { asn: 60068, name: "CDN77", country: "GB", category: "cdn", connection: "ix", weight: 45, prefixes4: [], prefixes6: [] },
  { asn: 15133, name: "Edgecast", country: "US", category: "cdn", connection: "ix", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 199524, name: "Gcore", country: "LU", category: "cdn", connection: "ix", weight: 25, prefixes4: [], prefixes6: [] },
  { asn: 200325, name: "Bunny.net", country: "SI", category: "cdn", connection: "ix", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 20446, name: "StackPath (Highwinds)", country: "US", category: "cdn", connection: "ix", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 19551, name: "Imperva", country: "US", category: "cdn", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 30081, name: "CacheFly", country: "US", category: "cdn", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 32787, name: "Akamai Prolexic", country: "US", category: "cdn", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },

  // --- Clouds and hosters peering at the IXs ---
  { asn: 396982, name: "Google Cloud", country: "US", category: "hosting", connection: "ix", weight: 120, infrastructure: "Google Cloud", prefixes4: ["34.64.0.0/10", "35.184.0.0/13"], prefixes6: [] },
  { asn: 24940, name: "Hetzner", country: "DE", category: "hosting", connection: "ix", weight: 100, prefixes4: ["88.198.0.0/16", "78.46.0.0/15", "5.9.0.0/16", "136.243.0.0/16"], prefixes6: ["2a01:4f8::/29"] },
  { asn: 16276, name: "OVHcloud", country: "FR", category: "hosting", connection: "ix", weight: 90, prefixes4: ["91.121.0.0/16", "37.187.0.0/16", "188.165.0.0/16", "54.36.0.0/14"], prefixes6: ["2001:41d0::/32"] },
  { asn: 14618, name: "Amazon AES", country: "US", category: "hosting", connection: "ix", weight: 60, prefixes4: [], prefixes6: [] },
  { asn: 14061, name: "DigitalOcean", country: "US", category: "hosting", connection: "ix", weight: 50, prefixes4: ["104.131.0.0/16", "159.203.0.0/16", "138.68.0.0/16", "167.99.0.0/16"], prefixes6: ["2604:a880::/32", "2a03:b0c0::/32"] },
  { asn: 8560, name: "IONOS", country: "DE", category: "hosting", connection: "ix", weight: 35, prefixes4: [], prefixes6: [] },
  { asn: 63949, name: "Linode", country: "US", category: "hosting", connection: "ix", weight: 30, prefixes4: ["139.162.0.0/16", "172.104.0.0/15"], prefixes6: [] },
  { asn: 60781, name: "Leaseweb", country: "NL", category: "hosting", connection: "ix", weight: 30, prefixes4: [], prefixes6: [] },
  { asn: 12876, name: "Scaleway", country: "FR", category: "hosting", connection: "ix", weight: 25, prefixes4: [], prefixes6: [] },
  { asn: 49544, name: "i3D.net", country: "NL", category: "hosting", connection: "ix", weight: 25, prefixes4: [], prefixes6: [] },
  { asn: 20473, name: "Vultr", country: "US", category: "hosting", connection: "ix", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 51167, name: "Contabo", country: "DE", category: "hosting", connection: "ix", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 31898, name: "Oracle Cloud", country: "US", category: "hosting", connection: "ix", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 6724, name: "Strato", country: "DE", category: "hosting", connection: "ix", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 197540, name: "netcup", country: "DE", category: "hosting", connection: "ix", weight: 12, prefixes4: [], prefixes6: [] },
  { asn: 9009, name: "M247", country: "GB", category: "hosting", connection: "ix", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 61157, name: "PlusServer", country: "DE", category: "hosting", connection: "ix", weight: 6, prefixes4: [], prefixes6: [] },

  // --- Clouds and hosters reached only via transit/peers ---
  { asn: 36351, name: "IBM Cloud", country: "US", category: "hosting", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 45102, name: "Alibaba Cloud", country: "US", category: "hosting", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 132203, name: "Tencent Cloud", country: "CN", category: "hosting", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 2635, name: "Automattic", country: "US", category: "hosting", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 47583, name: "Hostinger", country: "LT", category: "hosting", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 136907, name: "Huawei Cloud", country: "HK", category: "hosting", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 26496, name: "GoDaddy", country: "US", category: "hosting", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 20773, name: "Host Europe", country: "DE", category: "hosting", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 31034, name: "Aruba", country: "IT", category: "hosting", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 40401, name: "Backblaze", country: "US", category: "hosting", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 54825, name: "Equinix Metal", country: "US", category: "hosting", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 49981, name: "WorldStream", country: "NL", category: "hosting", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 19994, name: "Rackspace", country: "US", category: "hosting", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 21859, name: "Zenlayer", country: "US", category: "hosting", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 43350, name: "NForce", country: "NL", category: "hosting", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 50673, name: "Serverius", country: "NL", category: "hosting", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 8100, name: "QuadraNet", country: "US", category: "hosting", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 54290, name: "Hostwinds", country: "US", category: "hosting", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 29802, name: "Hivelocity", country: "US", category: "hosting", connection: "remote", weight: 1.1, prefixes4: [], prefixes6: [] },
  { asn: 36352, name: "ColoCrossing", country: "US", category: "hosting", connection: "remote", weight: 1.1, prefixes4: [], prefixes6: [] },
  { asn: 40676, name: "Psychz", country: "US", category: "hosting", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 49505, name: "Selectel", country: "RU", category: "hosting", connection: "remote", weight: 0.9, prefixes4: [], prefixes6: [] },

  // --- Eyeball ISPs peering at the IXs (Germany) ---
  { asn: 3320, name: "Deutsche Telekom", country: "DE", category: "eyeball", connection: "ix", weight: 250, prefixes4: ["79.192.0.0/10", "84.128.0.0/10", "91.0.0.0/10", "217.224.0.0/11"], prefixes6: ["2003::/19"] },
  { asn: 3209, name: "Vodafone Germany", country: "DE", category: "eyeball", connection: "ix", weight: 150, prefixes4: [], prefixes6: [] },
  { asn: 6805, name: "Telefonica Germany", country: "DE", category: "eyeball", connection: "ix", weight: 90, prefixes4: [], prefixes6: [] },
  { asn: 8881, name: "1&1 Versatel", country: "DE", category: "eyeball", connection: "ix", weight: 60, prefixes4: [], prefixes6: [] },
  { asn: 60294, name: "Deutsche Glasfaser", country: "DE", category: "eyeball", connection: "ix", weight: 30, prefixes4: [], prefixes6: [] },
  { asn: 31334, name: "Vodafone Kabel Deutschland", country: "DE", category: "eyeball", connection: "remote", weight: 20, prefixes4: [], prefixes6: [] },

  // --- Eyeball ISPs peering at the IXs (rest of the footprint: FR, GB, NL, AT, CH, BE) ---
  { asn: 3215, name: "Orange France", country: "FR", category: "eyeball", connection: "ix", weight: 60, prefixes4: [], prefixes6: [] },
  { asn: 12322, name: "Free", country: "FR", category: "eyeball", connection: "ix", weight: 50, prefixes4: [], prefixes6: [] },
  { asn: 2856, name: "BT", country: "GB", category: "eyeball", connection: "ix", weight: 50, prefixes4: [], prefixes6: [] },
  { asn: 5089, name: "Virgin Media", country: "GB", category: "eyeball", connection: "ix", weight: 45, prefixes4: [], prefixes6: [] },
  { asn: 1136, name: "KPN", country: "NL", category: "eyeball", connection: "ix", weight: 45, prefixes4: [], prefixes6: [] },
  { asn: 15557, name: "SFR", country: "FR", category: "eyeball", connection: "ix", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 5607, name: "Sky UK", country: "GB", category: "eyeball", connection: "ix", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 33915, name: "Ziggo", country: "NL", category: "eyeball", connection: "ix", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 8447, name: "A1 Telekom Austria", country: "AT", category: "eyeball", connection: "ix", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 5410, name: "Bouygues Telecom", country: "FR", category: "eyeball", connection: "ix", weight: 35, prefixes4: [], prefixes6: [] },
  { asn: 3303, name: "Swisscom", country: "CH", category: "eyeball", connection: "ix", weight: 35, prefixes4: [], prefixes6: [] },
  { asn: 8412, name: "Magenta Telekom", country: "AT", category: "eyeball", connection: "ix", weight: 30, prefixes4: [], prefixes6: [] },
  { asn: 25255, name: "Drei Austria", country: "AT", category: "eyeball", connection: "ix", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 6730, name: "Sunrise", country: "CH", category: "eyeball", connection: "ix", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 5432, name: "Proximus", country: "BE", category: "eyeball", connection: "ix", weight: 12, prefixes4: [], prefixes6: [] },
  { asn: 6848, name: "Telenet", country: "BE", category: "eyeball", connection: "ix", weight: 10, prefixes4: [], prefixes6: [] },

  // --- Eyeball ISPs of Europe reached only via transit/peers ---
  { asn: 3269, name: "Telecom Italia", country: "IT", category: "eyeball", connection: "remote", weight: 25, prefixes4: [], prefixes6: [] },
  { asn: 3352, name: "Telefonica Spain", country: "ES", category: "eyeball", connection: "remote", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 51207, name: "Free Mobile", country: "FR", category: "eyeball", connection: "remote", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 13285, name: "TalkTalk", country: "GB", category: "eyeball", connection: "remote", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 12576, name: "EE", country: "GB", category: "eyeball", connection: "remote", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 12874, name: "Fastweb", country: "IT", category: "eyeball", connection: "remote", weight: 12, prefixes4: [], prefixes6: [] },
  { asn: 5378, name: "Vodafone UK", country: "GB", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 9143, name: "VodafoneZiggo", country: "NL", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 31615, name: "Odido (T-Mobile NL)", country: "NL", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 30722, name: "Vodafone Italy", country: "IT", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 1267, name: "WindTre", country: "IT", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 3301, name: "Telia Sweden", country: "SE", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 5617, name: "Orange Polska", country: "PL", category: "eyeball", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 12430, name: "Vodafone Spain", country: "ES", category: "eyeball", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 12479, name: "Orange Spain", country: "ES", category: "eyeball", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 2119, name: "Telenor Norway", country: "NO", category: "eyeball", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 1257, name: "Tele2 Sweden", country: "SE", category: "eyeball", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 3292, name: "TDC", country: "DK", category: "eyeball", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 5610, name: "O2 Czech Republic", country: "CZ", category: "eyeball", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 8708, name: "Digi Romania", country: "RO", category: "eyeball", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 56478, name: "Hyperoptic", country: "GB", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 15796, name: "Salt", country: "CH", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 3243, name: "MEO", country: "PT", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 2860, name: "NOS", country: "PT", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 719, name: "Elisa", country: "FI", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 5483, name: "Magyar Telekom", country: "HU", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 9121, name: "Turk Telekom", country: "TR", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 13037, name: "Zen Internet", country: "GB", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 6871, name: "Plusnet UK", country: "GB", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 1759, name: "Telia Finland", country: "FI", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 16086, name: "DNA", country: "FI", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 12741, name: "Netia", country: "PL", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 9141, name: "UPC Polska", country: "PL", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 12912, name: "T-Mobile Polska", country: "PL", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 13036, name: "T-Mobile Czech Republic", country: "CZ", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 6799, name: "OTE", country: "GR", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 5466, name: "eir", country: "IE", category: "eyeball", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 12353, name: "Vodafone Portugal", country: "PT", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 9158, name: "Telenor Denmark", country: "DK", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 34984, name: "Turkcell Superonline", country: "TR", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 15895, name: "Kyivstar", country: "UA", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 12389, name: "Rostelecom", country: "RU", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 8473, name: "Bahnhof", country: "SE", category: "eyeball", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 8359, name: "MTS", country: "RU", category: "eyeball", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 6849, name: "Ukrtelecom", country: "UA", category: "eyeball", connection: "remote", weight: 1.1, prefixes4: [], prefixes6: [] },
  { asn: 8551, name: "Bezeq International", country: "IL", category: "eyeball", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },

  // --- Eyeball ISPs outside Europe (remote) ---
  { asn: 7922, name: "Comcast", country: "US", category: "eyeball", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 7018, name: "AT&T", country: "US", category: "eyeball", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 20115, name: "Charter", country: "US", category: "eyeball", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 21928, name: "T-Mobile US", country: "US", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 4134, name: "China Telecom", country: "CN", category: "eyeball", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 22773, name: "Cox", country: "US", category: "eyeball", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 4837, name: "China Unicom", country: "CN", category: "eyeball", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 55836, name: "Reliance Jio", country: "IN", category: "eyeball", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 9808, name: "China Mobile", country: "CN", category: "eyeball", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 4713, name: "NTT OCN", country: "JP", category: "eyeball", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 17676, name: "SoftBank", country: "JP", category: "eyeball", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 4766, name: "KT", country: "KR", category: "eyeball", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 9318, name: "SK Broadband", country: "KR", category: "eyeball", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 1221, name: "Telstra", country: "AU", category: "eyeball", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 4230, name: "Claro Brasil", country: "BR", category: "eyeball", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 18881, name: "Vivo", country: "BR", category: "eyeball", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 3462, name: "Chunghwa Telecom", country: "TW", category: "eyeball", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },
  { asn: 8151, name: "Telmex", country: "MX", category: "eyeball", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },

  // --- Other transit networks (not upstreams; HE peers at the IXs, the rest are remote) ---
  { asn: 6939, name: "Hurricane Electric", country: "US", category: "transit", connection: "ix", weight: 20, prefixes4: ["216.218.128.0/17"], prefixes6: ["2001:470::/32"] },
  { asn: 3257, name: "GTT", country: "US", category: "transit", connection: "remote", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 6762, name: "Telecom Italia Sparkle", country: "IT", category: "transit", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 6453, name: "Tata Communications", country: "US", category: "transit", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 6830, name: "Liberty Global", country: "NL", category: "transit", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 5511, name: "Orange International Carriers", country: "FR", category: "transit", connection: "remote", weight: 7, prefixes4: [], prefixes6: [] },
  { asn: 1273, name: "Vodafone Carrier Services", country: "GB", category: "transit", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 6461, name: "Zayo", country: "US", category: "transit", connection: "remote", weight: 6, prefixes4: [], prefixes6: [] },
  { asn: 701, name: "Verizon Business", country: "US", category: "transit", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 12956, name: "Telxius", country: "ES", category: "transit", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 9002, name: "RETN", country: "GB", category: "transit", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 33891, name: "Core-Backbone", country: "DE", category: "transit", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 8220, name: "Colt", country: "GB", category: "transit", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 5400, name: "BT Global Services", country: "GB", category: "transit", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 3491, name: "PCCW Global", country: "HK", category: "transit", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 6774, name: "BICS", country: "BE", category: "transit", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 13237, name: "euNetworks", country: "DE", category: "transit", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 13030, name: "Init7", country: "CH", category: "transit", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 1239, name: "Sprint", country: "US", category: "transit", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 2516, name: "KDDI", country: "JP", category: "transit", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 4809, name: "China Telecom CN2", country: "CN", category: "transit", connection: "remote", weight: 1.1, prefixes4: [], prefixes6: [] },
  { asn: 7473, name: "Singtel", country: "SG", category: "transit", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 4637, name: "Telstra International", country: "AU", category: "transit", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 9498, name: "Bharti Airtel", country: "IN", category: "transit", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },
  { asn: 4826, name: "Vocus", country: "AU", category: "transit", connection: "remote", weight: 0.6, prefixes4: [], prefixes6: [] },
  { asn: 30844, name: "Liquid Intelligent Technologies", country: "GB", category: "transit", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 37100, name: "SEACOM", country: "MU", category: "transit", connection: "remote", weight: 0.4, prefixes4: [], prefixes6: [] },

  // --- Enterprise, DNS and security networks (remote) ---
  { asn: 22616, name: "Zscaler", country: "US", category: "enterprise", connection: "remote", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 36692, name: "Cisco Umbrella (OpenDNS)", country: "US", category: "enterprise", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 109, name: "Cisco", country: "US", category: "enterprise", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 19281, name: "Quad9", country: "US", category: "enterprise", connection: "remote", weight: 1.2, prefixes4: ["9.9.9.0/24", "149.112.112.0/24"], prefixes6: ["2620:fe::/48"] },
  { asn: 26415, name: "Verisign", country: "US", category: "enterprise", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 71, name: "HP", country: "US", category: "enterprise", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 3557, name: "ISC", country: "US", category: "enterprise", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 42, name: "Packet Clearing House", country: "US", category: "enterprise", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 3333, name: "RIPE NCC", country: "NL", category: "enterprise", connection: "remote", weight: 0.3, prefixes4: ["193.0.0.0/21"], prefixes6: ["2001:67c:2e8::/48"] },

  // --- Research and education networks (DFN, SURF and ACOnet peer at the IXs) ---
  { asn: 680, name: "DFN", country: "DE", category: "education", connection: "ix", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 20965, name: "GEANT", country: "NL", category: "education", connection: "remote", weight: 5, prefixes4: [], prefixes6: [] },
  { asn: 1103, name: "SURF", country: "NL", category: "education", connection: "ix", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 786, name: "Jisc", country: "GB", category: "education", connection: "remote", weight: 4, prefixes4: [], prefixes6: [] },
  { asn: 1853, name: "ACOnet", country: "AT", category: "education", connection: "ix", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 2200, name: "RENATER", country: "FR", category: "education", connection: "remote", weight: 3, prefixes4: [], prefixes6: [] },
  { asn: 137, name: "GARR", country: "IT", category: "education", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 559, name: "SWITCH", country: "CH", category: "education", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 553, name: "BelWue", country: "DE", category: "education", connection: "remote", weight: 2, prefixes4: [], prefixes6: [] },
  { asn: 2603, name: "NORDUnet", country: "DK", category: "education", connection: "remote", weight: 1.5, prefixes4: [], prefixes6: [] },
  { asn: 12816, name: "LRZ", country: "DE", category: "education", connection: "remote", weight: 1.5, prefixes4: [], prefixes6: [] },
  { asn: 766, name: "RedIRIS", country: "ES", category: "education", connection: "remote", weight: 1.2, prefixes4: [], prefixes6: [] },
  { asn: 2611, name: "Belnet", country: "BE", category: "education", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 2852, name: "CESNET", country: "CZ", category: "education", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 513, name: "CERN", country: "CH", category: "education", connection: "remote", weight: 1, prefixes4: [], prefixes6: [] },
  { asn: 1653, name: "SUNET", country: "SE", category: "education", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },
  { asn: 224, name: "Sikt (UNINETT)", country: "NO", category: "education", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },
  { asn: 8501, name: "PIONIER", country: "PL", category: "education", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },
  { asn: 34878, name: "KIT", country: "DE", category: "education", connection: "remote", weight: 0.8, prefixes4: [], prefixes6: [] },
  { asn: 1741, name: "FUNET", country: "FI", category: "education", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 1213, name: "HEAnet", country: "IE", category: "education", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 207592, name: "GWDG", country: "DE", category: "education", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 11537, name: "Internet2", country: "US", category: "education", connection: "remote", weight: 0.5, prefixes4: [], prefixes6: [] },
  { asn: 5408, name: "GRNET", country: "GR", category: "education", connection: "remote", weight: 0.4, prefixes4: [], prefixes6: [] },
  { asn: 3, name: "MIT", country: "US", category: "education", connection: "remote", weight: 0.4, prefixes4: [], prefixes6: [] },
  { asn: 1835, name: "DeiC", country: "DK", category: "education", connection: "remote", weight: 0.3, prefixes4: [], prefixes6: [] },
  { asn: 293, name: "ESnet", country: "US", category: "education", connection: "remote", weight: 0.3, prefixes4: [], prefixes6: [] },
  { asn: 32, name: "Stanford University", country: "US", category: "education", connection: "remote", weight: 0.2, prefixes4: [], prefixes6: [] },
  { asn: 11, name: "Harvard University", country: "US", category: "education", connection: "remote", weight: 0.2, prefixes4: [], prefixes6: [] },
  { asn: 25, name: "UC Berkeley", country: "US", category: "education", connection: "remote", weight: 0.2, prefixes4: [], prefixes6: [] },

  // --- Downstream customers: regional ISPs and hosters in Germany/Austria buying transit ---
  { asn: 8422, name: "NetCologne", country: "DE", category: "customer", connection: "customer", weight: 40, prefixes4: [], prefixes6: [] },
  { asn: 8767, name: "M-net", country: "DE", category: "customer", connection: "customer", weight: 35, prefixes4: [], prefixes6: [] },
  { asn: 9145, name: "EWE TEL", country: "DE", category: "customer", connection: "customer", weight: 30, prefixes4: [], prefixes6: [] },
  { asn: 16202, name: "Pyur (Tele Columbus)", country: "DE", category: "customer", connection: "customer", weight: 25, prefixes4: [], prefixes6: [] },
  { asn: 15943, name: "wilhelm.tel", country: "DE", category: "customer", connection: "customer", weight: 20, prefixes4: [], prefixes6: [] },
  { asn: 1764, name: "next layer", country: "AT", category: "customer", connection: "customer", weight: 15, prefixes4: [], prefixes6: [] },
  { asn: 20676, name: "Plusnet", country: "DE", category: "customer", connection: "customer", weight: 12, prefixes4: [], prefixes6: [] },
  { asn: 47147, name: "Anexia", country: "AT", category: "customer", connection: "customer", weight: 10, prefixes4: [], prefixes6: [] },
  { asn: 24961, name: "myLoc", country: "DE", category: "customer", connection: "customer", weight: 8, prefixes4: [], prefixes6: [] },
  { asn: 5539, name: "SpaceNet", country: "DE", category: "customer", connection: "customer", weight: 6, prefixes4: [], prefixes6: [] },
];
