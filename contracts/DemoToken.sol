// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A sandbox stand-in for a dollar stablecoin: 6 decimals, and anyone may mint (a faucet for local chains and
/// tests; never deploy it where it could be mistaken for money). Its name and symbol are the deployer's: the vault's
/// demo asset is "Demo USD" (dUSD), the sandbox's stablecoin "Demo USD Coin" (USDC).
contract DemoToken is ERC20 {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
