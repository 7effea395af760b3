import { Type } from 'typebox';
import { ONBOARDING_LINK_STATUSES, ONBOARDING_LINK_TYPES } from '../../db/schema/index.js';
import { MAX_LINK_TTL_SECONDS, MIN_LINK_TTL_SECONDS } from '../../domain/onboarding-links/link-token.js';
import { Nullable, Text, Uuid } from './onboarding/common.js';

// Hosted onboarding links (docs/onboarding-links.md).

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const LinkType = Type.Enum([...ONBOARDING_LINK_TYPES], { type: 'string', description: 'individual: a person’s own account; entity: a company with its representative' });

const linkFields = {
  onboardingLinkId: Uuid(),
  type: LinkType,
  status: Type.Enum([...ONBOARDING_LINK_STATUSES], {
    type: 'string',
    description: 'pending; opened (its page was served); completed; expired (past expiresAt); revoked (DELETE, or a newer link for the same customer)',
  }),
  userId: Nullable(Uuid('The customer: the user the link was made for, or, once completed, the user the flow created')),
  email: Nullable(Type.String({ description: 'The address the link was made for, if one was given' })),
  redirectUrl: Nullable(Type.String({ description: 'Where the last page of the flow sends the customer' })),
  expiresAt: DateTime('The link stops working then'),
  openedAt: Nullable(DateTime('When its page was first served')),
  completedAt: Nullable(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
};

export const OnboardingLinkSchema = Type.Object(linkFields, {
  additionalProperties: false,
  title: 'OnboardingLink',
  description: 'A hosted onboarding link (never its token: the url is shown once, when it is made)',
});

export const CreatedOnboardingLinkSchema = Type.Object(
  { ...linkFields, url: Type.String({ description: 'The hosted page, <base>/onboarding/<token>: a single-use bearer secret, shown this once; give it to the customer only' }) },
  { additionalProperties: false, title: 'CreatedOnboardingLink', description: 'The new link, with its url (shown only here)' },
);

export const CreateOnboardingLinkBody = Type.Object(
  {
    type: LinkType,
    userId: Type.Optional(Uuid('An existing customer who owes something (data, a document, a resubmission); for entity, the representative')),
    email: Type.Optional(Text(254, { minLength: 3, description: 'The customer’s address; for a new customer, a newer link to the same address (and type) revokes this one' })),
    redirectUrl: Type.Optional(Text(2048, { minLength: 1, description: 'https (http://localhost in the sandbox): the last page links to it' })),
    expiresInSeconds: Type.Optional(
      Type.Integer({ minimum: MIN_LINK_TTL_SECONDS, maximum: MAX_LINK_TTL_SECONDS, description: 'Lifetime, 60 s to 24 h; default ONBOARDING_LINK_TTL_SECONDS (3,600)' }),
    ),
  },
  { additionalProperties: false, title: 'CreateOnboardingLink' },
);

export const OnboardingLinkIdParams = Type.Object({ onboardingLinkId: Uuid() }, { additionalProperties: false });

export const SimulateOnboardingLinkBody = Type.Object(
  {
    onboardingLinkId: Uuid(),
    outcome: Type.Enum(['opened', 'completed'], { type: 'string', description: 'opened: as if its page were served; completed: as if the customer finished the flow' }),
    userId: Type.Optional(Uuid('completed: the user who finished (required for a link made for a new customer; the link’s own user otherwise)')),
  },
  { additionalProperties: false },
);
