#!/usr/bin/env bash
# The system programs `make test` drives: Chromium (browser tests), nginx and curl (reverse-proxy
# tests), openssl (the webhook tests' throwaway CA), tar (backup restore), and the formats' own
# tools that check the files Phrasebook writes (docs/formats.md "Checked by the formats' tools"):
# msgfmt (gettext), translate-toolkit (xliff2po, prop2po and its Android and .strings readers),
# aapt2 (Android's resource compiler, Debian package aapt), plistutil (libplist-utils), xmllint
# (libxml2-utils: every XML file we write is namespace-well-formed) and minisign (which must accept
# every manifest signature Phrasebook makes, docs/delivery.md "Signatures"). Installs the missing ones
# from Debian's packages when it can (root with apt-get), else names them and stops.
# Litestream (the restore drill, test/replication/recovery.test.ts) is not one of them: it comes from npm
# as a pinned development dependency (@flydotio/litestream-linux-x64, Linux x64), which `make deps`
# installs into node_modules before any test runs.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || need+=(nginx)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v tar >/dev/null 2>&1 || need+=(tar)
command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
command -v xliff2po >/dev/null 2>&1 || need+=(translate-toolkit)
command -v aapt2 >/dev/null 2>&1 || need+=(aapt)
command -v plistutil >/dev/null 2>&1 || need+=(libplist-utils)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v minisign >/dev/null 2>&1 || need+=(minisign)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing test dependencies from Debian's packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" ca-certificates >/dev/null
else
  echo "make test needs these programs: ${need[*]} (on Debian: sudo apt-get install ${need[*]})" >&2
  exit 1
fi
