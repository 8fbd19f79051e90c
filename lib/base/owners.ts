/**
 * Which records a viewer sees, as a store's where clause (lib/auth/access `ownerFilter`):
 * every record (no sign-in), or a user's own and the unowned ones.
 */
export type OwnerFilter = { OR?: ({ ownerId: string } | { ownerId: null })[] };
