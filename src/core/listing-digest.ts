// The digest of what the cold-start lane listed, which the full hub compares instead of the list.
import { createHash } from 'node:crypto';

// What the cold-start lane listed, as the full hub compares it with its own list (hub.ts
// connectLines): a digest, not the list, so the hello line to the shared hub stays small however
// many tools are listed (a 1 MB list once made the hub refuse the hello, failing the first call).
export const listingDigest = (signature: string): string => createHash('sha256').update(signature).digest('base64url');
