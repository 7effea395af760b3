// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A sandbox stand-in for a dollar stablecoin: 6 decimals, and anyone may mint (a faucet for local chains and
/// tests; never deploy it where it could be mistaken for money).
contract DemoToken is ERC20 {
    constructor() ERC20("Demo USD", "dUSD") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
