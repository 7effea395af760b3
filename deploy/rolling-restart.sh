#!/usr/bin/env bash
# Restarts the API processes behind nginx one at a time, with no failed request (docs/deployment.md#behind-nginx-several-processes):
#
#   deploy/rolling-restart.sh 8081 8082
#
# For each port, in turn:
# 1. RESTART_COMMAND stops the process and starts it again (default: systemctl restart integrator-api@<port>).
#    On SIGTERM the process stops accepting connections (nginx's connect is refused, and it sends the request,
#    even a POST, to the other process), answers what it was given, waits for nginx to close its idle
#    keep-alive connections, and exits 0 (src/http/drain.ts). nginx is not reloaded.
# 2. GET /readyz on the port until 200 (READY_TIMEOUT seconds, default 60). If it never comes the script stops
#    there with exit 1, and the other processes, untouched, keep serving.
# 3. SETTLE_SECONDS (default 6: the upstream's fail_timeout, 5 s, plus 1): nginx put the process aside when its
#    connections were refused; after fail_timeout it sends it requests again. Only then may the next one stop,
#    or nginx would find no process to send to.
#
# Environment: RESTART_COMMAND ({port} is replaced by the port), READY_HOST (127.0.0.1), READY_TIMEOUT, SETTLE_SECONDS.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 PORT..." >&2
  exit 64
fi
RESTART_COMMAND=${RESTART_COMMAND:-'systemctl restart integrator-api@{port}'}
READY_HOST=${READY_HOST:-127.0.0.1}
READY_TIMEOUT=${READY_TIMEOUT:-60}
SETTLE_SECONDS=${SETTLE_SECONDS:-6}

now_ms() { date +%s%3N; }

for port in "$@"; do
  started=$(now_ms)
  echo "restarting the API process on port $port"
  sh -c "${RESTART_COMMAND//\{port\}/$port}"
  deadline=$(( started + READY_TIMEOUT * 1000 ))
  until curl -fsS -o /dev/null --max-time 2 "http://$READY_HOST:$port/readyz" 2>/dev/null; do
    if [ "$(now_ms)" -ge "$deadline" ]; then
      echo "the API process on port $port is not ready after ${READY_TIMEOUT} s: stopping here, the others were not touched" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "port $port ready $(( $(now_ms) - started )) ms after its restart began"
  sleep "$SETTLE_SECONDS"
done
echo "restarted: $*"
