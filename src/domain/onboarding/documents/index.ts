export * from './data-url.js';
export { DOCUMENT_TYPES, ENTITY_DOCUMENT_TYPES, USER_DOCUMENT_TYPES, documentTypeKind } from '../reference/document-types.js';
export type { EntityDocumentType, UserDocumentType } from '../reference/document-types.js';
