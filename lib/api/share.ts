import { z } from 'zod';

/** A share id as newShareId writes it (URL-safe, unguessable); anything else is not a link. */
export const SHARE_ID = /^[A-Za-z0-9_-]{16,64}$/;
export const ShareParams = z.object({ shareId: z.string().regex(SHARE_ID, 'not a share link') });
