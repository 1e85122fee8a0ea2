// `context-compactor/cache`: the provider's cache marker after the summary's frozen sections, as the
// value of the `cacheMarker` option. A hook that places no marker does not carry this code.
export { markFrozenSections } from "./dialects/cache-markers.js";
export type { FrozenSectionsMarkerOptions } from "./dialects/cache-markers.js";
export type { CacheMarker } from "./ground/types.js";
