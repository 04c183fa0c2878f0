#!/usr/bin/env bash
# The Debian 12 packages the tests need, installed when missing (run by `make test` and by .ci/run, which passes
# its own CI-only packages as arguments). As root with apt-get: installs what is missing, `apt-get update` only
# then. Otherwise: one line naming what to install, and carry on (browser tests then skip unless REQUIRE_BROWSER).
#
# chromium: browser tests; libatomic1: Playwright's bundled driver (node) on a minimal Debian; fonts-wqy-zenhei:
# CJK names in PDFs; poppler-utils: PDF pages as pictures (pdftoppm); gettext: makemessages/compilemessages;
# nginx-light, openssl: the nginx site and public-cache tests; make, python3-venv: `make test` itself.
set -euo pipefail

packages=(chromium libatomic1 fonts-wqy-zenhei poppler-utils gettext nginx-light openssl make python3-venv "$@")

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "tests/debian-packages.sh: not Debian; the tests want the equivalents of: ${packages[*]}"
  exit 0
fi

need=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || need+=("$package")
done
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "tests/debian-packages.sh: some tests skip or fail without these; as root: apt-get install -y ${need[*]}"
  exit 0
fi

echo "== installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need[@]}" >/dev/null
