#!/usr/bin/env bash
# Regenerates scope-grant/src/main/resources/dev/deckhand/grant/consequential-words.tsv from the gettext
# .mo files installed under /usr/share/locale (the translations the desktop's own packages ship), or,
# with "report", walks every menu and button label of the installed apps through the gate and prints
# how many gate and which look like false positives (docs/security.md quotes the figures).
# Reads only what is installed; downloads nothing. Usage: scripts/consequential-words.sh [report]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -o -pl scope-grant -am -DskipTests test-compile
icu=$(ls ~/.m2/repository/com/ibm/icu/icu4j/*/icu4j-*.jar | grep -v sources | sort -V | tail -1)
cp="scope-grant/target/test-classes:scope-grant/target/classes:$icu"
if [[ "${1:-}" == report ]]; then
  exec java -cp "$cp" dev.deckhand.grant.LabelCorpusReport "${@:2}"
fi
exec java -cp "$cp" dev.deckhand.grant.tools.WordListGenerator /usr/share/locale \
  scope-grant/src/main/resources/dev/deckhand/grant/consequential-words.tsv
