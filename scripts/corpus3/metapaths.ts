export async function metapaths(): Promise<void> {}
