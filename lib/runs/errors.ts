/** @deprecated Moved to lib/base/errors.ts; this re-export goes once no branch in flight imports it. */
export * from '@/lib/base/errors';
