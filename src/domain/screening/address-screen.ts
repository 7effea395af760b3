/**
 * A wallet address published on a sanctions list (OFAC's SDN remarks: `Digital Currency Address - ETH 0x…;`), as the
 * screening of transfers reports it (docs/screening.md#wallet-addresses).
 */
export interface ListedAddress {
  /** The list's label (SCREENING_LISTS, e.g. OFAC-SDN). */
  list: string;
  /** The entry's number on its list (OFAC's ent_num). */
  entryNumber: string;
  /** The listed party's name. */
  name: string;
  /** The entry's sanctions programs (e.g. CYBER2, DPRK3). */
  programs: string[];
  /** The currency the list gives for the address (ETH, USDC, USDT, ...). */
  currency: string;
  /** As published. */
  address: string;
}

/** Looks an address up on the loaded lists (case does not matter for 0x addresses); undefined when it is on none. */
export interface AddressScreen {
  addressHit(address: string): ListedAddress | undefined;
  /**
   * Every listed address of one version of the lists, by its key (0x addresses lower-case): a reload gives a new map.
   * Scanning calldata reads it whole (value-recipients.ts), which a lookup per byte offset would make slow.
   */
  addressIndex(): ReadonlyMap<string, ListedAddress>;
}
