import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import type { PasskeyRequest } from '../../../packages/sdk/src/index.js';
import { registerVault } from '../../../src/domain/vaults/vault-admin.js';
import type { Anvil } from '../../harness/anvil.js';
import type { SoftwareAuthenticator } from '../../harness/authenticator.js';
import { createCustomer, ETH, settled, signedBody, unsignedTransfer, type Customer } from '../../harness/customers.js';
import { companyInfo, entityDocs, signedAt } from '../../harness/fixtures.js';
import { ownerInvitation, ownerlessEntity, outboxMessage, tokenIn } from '../../harness/invitations.js';
import { post, seatMember, teamAccount, type TeamAccount } from '../../harness/members.js';
import { verifiedBankAccount, withdrawalInTransfer } from '../../harness/money.js';
import type { SeededIntegrator, TestServer } from '../../harness/server.js';
import { deployVault } from '../../harness/vaults.js';

/** What an example needs to be sent for real: values for its placeholders, the passkey that stamps it, its path. */
export interface RealValues {
  /** By the name of EXAMPLE_IDS or EXAMPLE_VALUES. */
  values?: Record<string, string>;
  /** Stamps the example's signedBody (stampWithPasskey over this authenticator). */
  passkey?: SoftwareAuthenticator;
  /** The templated path's parameters. */
  path?: Record<string, string>;
}

/** navigator.credentials for a software authenticator: what the SDK's stampWithPasskey asks in a browser. */
export const credentialsOf = (passkey: SoftwareAuthenticator) => ({
  get: async (options: PasskeyRequest) => {
    const assertion = passkey.assert(options.publicKey.challenge);
    return { rawId: passkey.credentialId, response: { authenticatorData: assertion.authenticatorData, clientDataJSON: assertion.clientDataJson, signature: assertion.signature } };
  },
});

/**
 * Per operation, the records its example is about, made when it is its turn (after the operations before it in
 * the returned order, whose answers it may use): real ids for the example's placeholders.
 */
export function realValues(server: TestServer, acme: SeededIntegrator, chain: Anvil) {
  const answers = new Map<string, { status: number; body: any }>();
  const customer = (approve = true) => createCustomer(server, acme, { approve });
  const funded = async () => {
    const c = await customer();
    await chain.setBalance(c.walletAddress, ETH);
    return c;
  };
  const of = (c: Pick<Customer, 'userId' | 'accountId' | 'organizationId' | 'walletAddress'>) => ({ userId: c.userId, accountId: c.accountId, organizationId: c.organizationId, walletAddress: c.walletAddress });
  let payer: Customer;
  let team: TeamAccount & { approver: Customer; nonce: number };
  let vault: { vaultId: string; holder: Customer };
  let invitation: { invitationId: string; token: string };
  /** A proposal of the team's approver, waiting for a second approval. */
  const proposal = async () => {
    const body = signedBody(server, team, unsignedTransfer(8453, team.nonce++));
    const res = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: randomUUID(), signedBody: body, actingUserId: team.approver.userId, webAuthnStamp: team.approver.passkey.stamp(JSON.stringify(body)) });
    assert.equal(res.status, 201, res.text);
    return res.body.transactionId as string;
  };
  const teamAction = (ids: Record<string, string>): RealValues => ({ values: { entityAccountId: team.accountId, organizationId: team.organizationId, actingUserId: team.owner.userId, ...ids }, passkey: team.owner.passkey });

  const plan: [string, () => Promise<RealValues>][] = [
    ['createCredential', async () => ({})],
    ['updateCredential', async () => ({ path: { pubkey: answers.get('createCredential')!.body.credential.publicKey } })],
    ['createUser', async () => ({})],
    ['createIndividualAccount', async () => ({})],
    ['updateUser', async () => ({ values: { userId: (payer = await funded()).userId } })],
    ['createEntityAccount', async () => ({})],
    ['updateEntityAccount', async () => ({ values: { entityAccountId: answers.get('createEntityAccount')!.body.accountId } })],
    ['createAssociatedPerson', async () => ({ values: { entityAccountId: answers.get('createEntityAccount')!.body.accountId } })],
    ['updateAssociatedPerson', async () => ({ values: { beneficiaryId: answers.get('createAssociatedPerson')!.body.beneficiaryId } })],
    ['removeAssociatedPerson', async () => ({ values: { beneficiaryId: answers.get('createAssociatedPerson')!.body.beneficiaryId } })],
    ['createEntityWallet', async () => ({ values: { entityAccountId: answers.get('createEntityAccount')!.body.accountId } })],
    ['requestVerification', async () => {
      // An entity created incomplete, then completed: in init, where verification is requested (docs/verification.md).
      const entity = await post(server, acme, '/v1/submit/create-entity-account', { entityInfo: companyInfo(), serviceTermsSignedAt: signedAt() });
      server.clock.advance(1000);
      const completed = await acme.client.patch('/v1/submit/update-entity-account', { accountId: entity.body.accountId, entityDocuments: entityDocs() });
      assert.equal(completed.status, 200, completed.text);
      return { values: { accountId: entity.body.accountId } };
    }],
    ['simulateVerification', async () => ({ values: { accountId: (await customer(false)).accountId } })],
    ['createOnboardingLink', async () => ({})],
    ['simulateOnboardingLink', async () => ({ values: { onboardingLinkId: answers.get('createOnboardingLink')!.body.onboardingLinkId, userId: (await customer(false)).userId } })],
    ['createWebhookSubscription', async () => ({})],
    ['updateWebhookSubscription', async () => ({ path: { subscriptionId: answers.get('createWebhookSubscription')!.body.subscription.id } })],
    ['recoverWebhookDeliveries', async () => ({ path: { subscriptionId: answers.get('createWebhookSubscription')!.body.subscription.id } })],
    ['initOtp', async () => ({ values: { userId: payer.userId } })],
    ['verifyOtp', async () => {
      const box = await acme.client.get(`/v1/sandbox/otp-outbox?userId=${payer.userId}`);
      return { values: { userId: payer.userId, otpCode: box.body.data[0].code } };
    }],
    ['sendTransactionOtp', async () => ({ values: { ...of(payer), newTransactionId: randomUUID(), approvalToken: answers.get('verifyOtp')!.body.approvalToken } })],
    ['sendTransactionPasskey', async () => {
      const other = await funded();
      return { values: { ...of(other), newTransactionId: randomUUID() }, passkey: other.passkey };
    }],
    ['createDeposit', async () => ({ values: { accountId: payer.accountId } })],
    ['simulateDeposit', async () => ({ values: { transactionId: answers.get('createDeposit')!.body.transactionId } })],
    ['createBankAccount', async () => ({ values: { accountId: payer.accountId } })],
    ['createWithdrawal', async () => ({ values: { accountId: payer.accountId, bankAccountId: answers.get('createBankAccount')!.body.bankAccountId } })],
    ['simulateWithdrawal', async () => {
      const other = await funded();
      return { values: { transactionId: (await withdrawalInTransfer(server, acme, other, await verifiedBankAccount(server, acme, other.accountId))).transactionId } };
    }],
    ['simulateBankAccountReview', async () => {
      // A holder name unlike the account's KYC name: the bank account waits for review.
      const res = await post(server, acme, '/v1/submit/create-bank-account', { accountId: payer.accountId, currency: 'EUR', accountHolderName: 'Someone Else', iban: { iban: 'DE89370400440532013000' } });
      assert.equal(res.status, 201, res.text);
      return { values: { bankAccountId: res.body.bankAccountId } };
    }],
    ['removeBankAccount', async () => ({ values: { bankAccountId: answers.get('createBankAccount')!.body.bankAccountId } })],
    ['createPolicy', async () => ({ values: { accountId: (await customer()).accountId } })],
    ['addAddressBookEntry', async () => ({ path: { accountId: (await customer()).accountId } })],
    ['createInvitation', async () => ({ values: { entityAccountId: (await ownerlessEntity(server, acme)).accountId } })],
    ['acceptInvitation', async () => {
      const invitationId = answers.get('createInvitation')!.body.invitationId;
      return { values: { invitationToken: tokenIn((await outboxMessage(acme, invitationId)).text) } };
    }],
    ['resendInvitation', async () => {
      invitation = await ownerInvitation(server, acme, (await ownerlessEntity(server, acme)).accountId);
      server.clock.advance(61_000); // past the resend wait (docs/invitations.md)
      return { values: { invitationId: invitation.invitationId } };
    }],
    ['revokeInvitation', async () => ({ values: { invitationId: invitation.invitationId } })],
    ['updateMemberRole', async () => {
      const account = await teamAccount(server, acme);
      team = { ...account, approver: await seatMember(server, acme, account, 'viewer'), nonce: 0 };
      await chain.setBalance(team.walletAddress, ETH);
      return teamAction({ memberUserId: team.approver.userId });
    }],
    ['updateApprovalPolicy', async () => teamAction({})],
    ['deletePolicy', async () => {
      // A policy of the team's entity account: its owner approves the deletion (docs/policies.md#who-may-change-a-policy).
      const policy = await post(server, acme, '/v1/policies', { accountId: team.accountId, rules: [{ type: 'new_destination_delay', hours: 24 }] });
      assert.equal(policy.status, 201, policy.text);
      return { ...teamAction({ policyId: policy.body.policyId }), path: { policyId: policy.body.policyId } };
    }],
    ['approveTransaction', async () => teamAction({ transactionId: await proposal() })],
    ['rejectTransaction', async () => teamAction({ transactionId: await proposal() })],
    ['removeMember', async () => teamAction({ memberUserId: (await seatMember(server, acme, team, 'viewer')).userId })],
    ['enableProduct', async () => {
      const demo = await deployVault(chain);
      const { vaultId } = await registerVault(server.database.db, server.chains, { chainId: 8453, address: demo.vault }, server.clock.now());
      vault = { vaultId, holder: await funded() };
      await demo.mint(vault.holder.walletAddress as Address, 100_000_000n);
      return { values: { accountId: vault.holder.accountId } };
    }],
    ['prepareVaultDeposit', async () => ({ values: { accountId: vault.holder.accountId, vaultId: vault.vaultId } })],
    ['prepareVaultWithdrawal', async () => {
      // The holder approves the prepared deposit (allowance, then deposit): a position to withdraw from.
      for (const tx of answers.get('prepareVaultDeposit')!.body.transactions as { transactionId: string; unsignedTransaction: string }[]) {
        const body = signedBody(server, vault.holder, tx.unsignedTransaction);
        const sent = await post(server, acme, '/v1/submit/send-transaction-passkey?chain_id=8453', { transactionId: tx.transactionId, signedBody: body, webAuthnStamp: vault.holder.passkey.stamp(JSON.stringify(body)) });
        assert.equal(sent.status, 201, sent.text);
        await server.watcher!.nextRound();
        assert.equal((await settled(acme, tx.transactionId)).status, 'completed');
      }
      server.clock.advance(16_000); // past the 15 s cache of vault reads (docs/products.md)
      return { values: { accountId: vault.holder.accountId, vaultId: vault.vaultId } };
    }],
    ['disableProduct', async () => ({ values: { accountId: vault.holder.accountId } })],
  ];
  return { plan, answers };
}
