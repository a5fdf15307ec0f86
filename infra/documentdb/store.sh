# shellcheck shell=bash
# Sourced by scripts/infra.sh: the local MongoDB-wire store, DocumentDB on PostgreSQL 15.
#
#   postgres    PostgreSQL 15 (Debian) with DocumentDB's extensions, 127.0.0.1:9712, data in .data/postgres
#   documentdb  DocumentDB's own MongoDB wire gateway (pg_documentdb_gw, Rust), 127.0.0.1:27017
#
# Built once per machine from ../shared/vendor (DocumentDB 0.106-0 with its extended RUM, libbson 1.28.0,
# pgvector 0.8.0) and Debian's packages; see infra/README.md "The store" and "Index-ordered pages". The
# extensions go where PostgreSQL loads them from (/usr/lib/postgresql/15/lib, /usr/share/postgresql/15/extension);
# libbson and the gateway binary under STORE_HOME. A stamp there names what was built; a later `up` skips the
# build when it matches.

PG_MAJOR=15
PG_BIN="/usr/lib/postgresql/$PG_MAJOR/bin"
PG_HOST=127.0.0.1
PG_PORT="${PG_PORT:-9712}"
PG_START_TIMEOUT="${PG_START_TIMEOUT:-60}"
PG_DIR="$DATA/postgres"
PG_LOG="$LOGS/postgres.log"
DOCUMENTDB_HOST=127.0.0.1
DOCUMENTDB_PORT="${DOCUMENTDB_PORT:-27017}"
DOCUMENTDB_START_TIMEOUT="${DOCUMENTDB_START_TIMEOUT:-60}"
DOCUMENTDB_DIR="$DATA/documentdb"
DOCUMENTDB_LOG="$LOGS/documentdb.log"
# The store's login (the gateway authenticates with SCRAM-SHA-256 against PostgreSQL roles). Local only;
# the default MONGO_URL in services/platform/src/config.ts carries the same pair.
STORE_USER="${STORE_USER:-oncotrf}"
STORE_PASSWORD="${STORE_PASSWORD:-oncotrf-local}"
# A second login, used only to create index-ordered indexes (infra/README.md "Index-ordered pages"): its
# sessions create DocumentDB's extended RUM indexes (documentdb.alternate_index_handler_name, set on the role,
# never globally: unique indexes cannot be created with it). Same password; the app never signs in with it.
STORE_ORDERED_USER="${STORE_ORDERED_USER:-${STORE_USER}_ordered}"
STORE_ORDERED_PASSWORD="${STORE_ORDERED_PASSWORD:-$STORE_PASSWORD}"

DOCUMENTDB_VERSION="0.106-0"
LIBBSON_VERSION="1.28.0"
PGVECTOR_VERSION="0.8.0"
# Bumped whenever the build recipe or a gateway patch changes, so an older build is not reused.
STORE_BUILD_REV="r5"
STORE_BUILD_ID="documentdb-$DOCUMENTDB_VERSION-libbson-$LIBBSON_VERSION-pgvector-$PGVECTOR_VERSION-$STORE_BUILD_REV"
STORE_HOME="${STORE_HOME:-/opt/oncotrf-store/$STORE_BUILD_ID}"
STORE_GATEWAY_BIN="$STORE_HOME/bin/documentdb_gateway"
VENDOR_DIR="${VENDOR_DIR:-$ROOT/../shared/vendor}"

STORE_APT_PKGS=(postgresql-$PG_MAJOR postgresql-server-dev-$PG_MAJOR postgresql-$PG_MAJOR-cron
  postgresql-$PG_MAJOR-postgis-3 postgresql-$PG_MAJOR-rum libintelrdfpmath-dev libpcre2-dev systemtap-sdt-dev
  cmake pkg-config build-essential patch libssl-dev libkrb5-dev)

store_missing_pkgs() {
  local p missing=()
  for p in "${STORE_APT_PKGS[@]}"; do dpkg_installed "$p" || missing+=("$p"); done
  echo "${missing[*]:-}"
}

store_installed() {
  [[ -z "$(store_missing_pkgs)" ]] &&
    [[ -x "$STORE_GATEWAY_BIN" ]] &&
    [[ "$(cat "$STORE_HOME/installed" 2>/dev/null || true)" == "$STORE_BUILD_ID" ]] &&
    [[ -f "/usr/lib/postgresql/$PG_MAJOR/lib/pg_documentdb.so" ]] &&
    [[ -f "/usr/lib/postgresql/$PG_MAJOR/lib/pg_documentdb_extended_rum.so" ]] &&
    [[ -f "/usr/lib/postgresql/$PG_MAJOR/lib/vector.so" ]] &&
    grep -q "default_version = '$DOCUMENTDB_VERSION'" "/usr/share/postgresql/$PG_MAJOR/extension/documentdb.control" 2>/dev/null
}

ensure_cargo() {
  if have cargo; then return 0; fi
  if [[ -x "$HOME/.cargo/bin/cargo" ]]; then
    PATH="$HOME/.cargo/bin:$PATH"
    return 0
  fi
  err "documentdb: cargo (Rust) is needed to build the gateway; install Rust (rustup, or apt-get install cargo)"
  return 1
}

# The gateway's source is patched before it is built (infra/documentdb/gateway-*.patch; each says why):
#  - gateway-create-indexes.patch: createIndexes builds the index in the call, as MongoDB answers it. As
#    published, the gateway queues the build for pg_cron and polls; Debian 12's pg_cron 1.4 has no schedules in
#    seconds, so every index on an existing collection waited up to a minute.
#  - gateway-bind-once.patch: the listener is bound once. As published it is bound anew for every accepted
#    connection, so connections opened together (a driver filling its pool) were reset or refused.
#  - gateway-write-conflict-retry.patch: a single write outside a transaction that PostgreSQL aborted as a
#    deadlock victim is re-run after 50 ms, as MongoDB re-runs a write conflict inside the server. Two writers
#    taking one unique key wait on each other's row; as published, findAndModify then answered 112 (WriteConflict)
#    and only `update` was re-run, after 5 s (store.int.test.ts, "racing writers of one unique key").
#
# The extension's source is patched too (infra/documentdb/extension-*.patch):
#  - extension-upsert-race.patch: an upsert by _id whose insert meets a concurrent insert of the same _id updates
#    that document, as MongoDB does. As published it replaced it: two racing upserts both reported an insert and
#    the first one's write was lost (services/platform/src/store.int.test.ts, "racing upserts").
patch_sources() { # documentdb source dir, patch kind (gateway | extension)
  local p
  for p in "$ROOT"/infra/documentdb/"$2"-*.patch; do
    patch -p1 -d "$1" --forward <"$p" || {
      err "documentdb: $(rel "$p") does not apply to DocumentDB $DOCUMENTDB_VERSION"
      return 1
    }
  done
}

build_store() {
  local logf="$LOGS/install-documentdb.log" t0=$SECONDS missing build jobs
  : >"$logf"
  missing="$(store_missing_pkgs)"
  if [[ -n "$missing" ]]; then
    log "documentdb: installing Debian packages: $missing"
    # shellcheck disable=SC2086
    apt_install $missing || return 1
  fi
  ensure_cargo || return 1
  if [[ ! -d "$VENDOR_DIR" ]]; then
    err "documentdb: the vendored sources are not at $VENDOR_DIR (set VENDOR_DIR to the folder with documentdb-$DOCUMENTDB_VERSION.tar.gz)"
    return 1
  fi
  log "documentdb: checking the vendored archives in $VENDOR_DIR..."
  if ! (cd "$VENDOR_DIR" && sha256sum -c SHA256SUMS) >>"$logf" 2>&1; then
    err "documentdb: an archive in $VENDOR_DIR does not match SHA256SUMS"
    show_log_tail "$logf" 10
    return 1
  fi
  if [[ $EUID -ne 0 ]]; then
    err "documentdb: the build installs PostgreSQL extensions into /usr/lib/postgresql; run it as root once"
    return 1
  fi
  build="$(mktemp -d "${TMPDIR:-/tmp}/oncotrf-store-build.XXXXXX")"
  jobs="$(nproc 2>/dev/null || echo 2)"
  mkdir -p "$STORE_HOME/bin" "$STORE_HOME/deps"
  rm -f "$STORE_HOME/installed"
  local deps="$STORE_HOME/deps" ok=1
  log "documentdb: building (first time on this machine, ~4 min; output in $(rel "$logf"))"
  (cd "$build" &&
    tar xzf "$VENDOR_DIR/mongo-c-driver-$LIBBSON_VERSION.tar.gz" &&
    tar xzf "$VENDOR_DIR/pgvector-$PGVECTOR_VERSION.tar.gz" &&
    tar xzf "$VENDOR_DIR/documentdb-$DOCUMENTDB_VERSION.tar.gz") >>"$logf" 2>&1 || { err "documentdb: could not unpack the vendored archives"; ok=0; }
  if ((ok)); then
    log "documentdb: [1/4] libbson $LIBBSON_VERSION (static, into $deps)..."
    (cd "$build/mongo-c-driver-$LIBBSON_VERSION" && mkdir -p _build && cd _build &&
      cmake -DENABLE_MONGOC=OFF -DENABLE_TESTS=OFF -DENABLE_EXAMPLES=OFF -DENABLE_ICU=OFF \
        -DCMAKE_C_FLAGS=-fPIC -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$deps" .. &&
      make -j"$jobs" install) >>"$logf" 2>&1 || { err "documentdb: libbson build failed"; ok=0; }
  fi
  if ((ok)); then
    # DocumentDB links the Intel decimal library statically. Debian ships it as libbidgcc<by-ref><rnd><flags>.a;
    # DocumentDB's own script builds it with CALL_BY_REF=0 GLOBAL_RND=0 GLOBAL_FLAGS=0, i.e. libbidgcc000.a.
    # Naming the archive in Libs is what puts __bid128_* into pg_documentdb_core.so (a bare -lbid finds none).
    mkdir -p "$deps/lib/pkgconfig"
    cat >"$deps/lib/pkgconfig/intelmathlib.pc" <<PC
prefix=/usr
libdir=/usr/lib/$(gcc -dumpmachine)
includedir=/usr/include

Name: intelmathlib
Description: Intel Decimal Floating-Point Math Library (Debian libintelrdfpmath-dev, CALL_BY_REF=0 GLOBAL_RND=0 GLOBAL_FLAGS=0)
Version: 2.0u2
Cflags: -I\${includedir}
Libs: \${libdir}/libbidgcc000.a
PC
    log "documentdb: [2/4] pgvector $PGVECTOR_VERSION..."
    (cd "$build/pgvector-$PGVECTOR_VERSION" && make -j"$jobs" OPTFLAGS="" PG_CONFIG="$PG_BIN/pg_config" &&
      make install PG_CONFIG="$PG_BIN/pg_config") >>"$logf" 2>&1 || { err "documentdb: pgvector build failed"; ok=0; }
  fi
  if ((ok)); then
    # pg_documentdb_extended_rum (DocumentDB's own RUM, internal/ in the same archive) links against the
    # pg_documentdb.so built just before it in the same tree, so it is built last.
    log "documentdb: [3/4] DocumentDB $DOCUMENTDB_VERSION extensions (pg_documentdb_core, pg_documentdb, pg_documentdb_extended_rum)..."
    (export PKG_CONFIG_PATH="$deps/lib/pkgconfig" PG_CONFIG="$PG_BIN/pg_config"
      patch_sources "$build/documentdb-$DOCUMENTDB_VERSION" extension &&
      cd "$build/documentdb-$DOCUMENTDB_VERSION" &&
      make -C pg_documentdb_core -j"$jobs" && make -C pg_documentdb_core install &&
      make -C pg_documentdb -j"$jobs" && make -C pg_documentdb install &&
      make -C internal/pg_documentdb_extended_rum -j"$jobs" &&
      make -C internal/pg_documentdb_extended_rum install) >>"$logf" 2>&1 ||
      { err "documentdb: extension build failed"; ok=0; }
  fi
  if ((ok)) && nm -D --undefined-only "/usr/lib/postgresql/$PG_MAJOR/lib/pg_documentdb_core.so" | grep -q ' __bid'; then
    err "documentdb: pg_documentdb_core.so still has undefined Intel decimal symbols (see $(rel "$logf"))"
    ok=0
  fi
  if ((ok)); then
    log "documentdb: [4/4] the wire gateway (Rust; crates from the registry, ~2-3 min)..."
    (patch_sources "$build/documentdb-$DOCUMENTDB_VERSION" gateway &&
      cd "$build/documentdb-$DOCUMENTDB_VERSION/pg_documentdb_gw" && cargo build --release --locked &&
      install -m 0755 target/release/documentdb_gateway "$STORE_GATEWAY_BIN") >>"$logf" 2>&1 ||
      { err "documentdb: gateway build failed"; ok=0; }
  fi
  rm -rf "$build"
  if ((!ok)); then
    show_log_tail "$logf" 30
    err "documentdb: full build log: $(rel "$logf")"
    return 1
  fi
  echo "$STORE_BUILD_ID" >"$STORE_HOME/installed"
  log "documentdb: built and installed in $((SECONDS - t0)) s ($STORE_HOME)"
}

install_postgres() { install_store; }
install_documentdb() { install_store; }
install_store() {
  store_installed && return 0
  install_failed_already postgres && return 1
  build_store
}

# PostgreSQL refuses to run as root: as root the cluster belongs to Debian's `postgres` user. Its programs run
# from / (PostgreSQL stops when it cannot read its working directory, e.g. a checkout only root can enter).
pg_run_as() {
  if [[ $EUID -eq 0 ]]; then
    (cd / && setpriv --reuid=postgres --regid=postgres --init-groups --reset-env -- env PATH=/usr/bin:/bin LANG=C.UTF-8 "$@")
  else
    "$@"
  fi
}

psql_store() { # psql as the superuser of our cluster
  PGCONNECT_TIMEOUT=3 pg_run_as psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres -X -q -v ON_ERROR_STOP=1 "$@"
}

pg_prepare() {
  mkdir -p "$PG_DIR"
  if [[ $EUID -eq 0 ]]; then
    chown postgres:postgres "$PG_DIR"
    # The cluster runs as `postgres`, which must reach it: a checkout under a private folder (mode 700, as
    # mktemp makes them) is not reachable, so the cluster then lives under /var/lib/oncotrf-store, one per
    # checkout, and .data/postgres links to it.
    if ! pg_run_as test -w "$PG_DIR"; then
      local alt
      alt="/var/lib/oncotrf-store/clusters/$(printf '%s' "$ROOT" | sha1sum | cut -c1-12)"
      log "postgres: $(rel "$PG_DIR") is not reachable for the postgres user; keeping the cluster in $alt"
      mkdir -p "$alt" && chown postgres:postgres "$alt" && rmdir "$PG_DIR" && ln -sfn "$alt" "$PG_DIR"
    fi
  fi
  if [[ ! -f "$PG_DIR/data/PG_VERSION" ]]; then
    log "postgres: creating the cluster in $(rel "$PG_DIR/data")..."
    pg_run_as "$PG_BIN/initdb" -D "$(cd "$PG_DIR" && pwd -P)/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >>"$LOGS/install-postgres.log" 2>&1 ||
      { err "postgres: initdb failed"; show_log_tail "$LOGS/install-postgres.log" 20; return 1; }
  fi
  # our settings, rendered every start from infra/documentdb/postgresql.conf
  sed -e "s#@PORT@#$PG_PORT#" "$ROOT/infra/documentdb/postgresql.conf" >"$PG_DIR/data/oncotrf.conf"
  grep -q "^include_if_exists = 'oncotrf.conf'" "$PG_DIR/data/postgresql.conf" ||
    echo "include_if_exists = 'oncotrf.conf'" >>"$PG_DIR/data/postgresql.conf"
  [[ $EUID -ne 0 ]] || chown postgres:postgres "$PG_DIR/data/oncotrf.conf"
  return 0
}

start_postgres() {
  install_store || return 1
  rotate_log "$PG_LOG"
  pg_prepare || return 1
  log "postgres: starting PostgreSQL $PG_MAJOR with DocumentDB $DOCUMENTDB_VERSION on $PG_HOST:$PG_PORT (data in $(rel "$PG_DIR"))..."
  local data
  data="$(cd "$PG_DIR/data" && pwd -P)" # the real path, when .data/postgres is a link
  if [[ $EUID -eq 0 ]]; then
    (cd / && launch postgres "$PG_LOG" setpriv --reuid=postgres --regid=postgres --init-groups -- "$PG_BIN/postgres" -D "$data")
  else
    (cd / && launch postgres "$PG_LOG" "$PG_BIN/postgres" -D "$data")
  fi
}

postgres_ready() {
  pg_run_as "$PG_BIN/pg_isready" -q -h "$PG_HOST" -p "$PG_PORT" -t 2 || return 1
  # first start: the extensions and the store's login (idempotent)
  [[ -f "$PG_DIR/.provisioned-$STORE_BUILD_ID" ]] && return 0
  psql_store >>"$LOGS/install-postgres.log" 2>&1 <<SQL || return 1
CREATE EXTENSION IF NOT EXISTS documentdb CASCADE;
ALTER EXTENSION documentdb_core UPDATE;
ALTER EXTENSION documentdb UPDATE;
CREATE EXTENSION IF NOT EXISTS documentdb_extended_rum;
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$STORE_USER') THEN
    CREATE ROLE "$STORE_USER" WITH LOGIN INHERIT CREATEROLE PASSWORD '$STORE_PASSWORD' IN ROLE documentdb_admin_role;
    GRANT "$STORE_USER" TO postgres WITH ADMIN OPTION;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$STORE_ORDERED_USER') THEN
    CREATE ROLE "$STORE_ORDERED_USER" WITH LOGIN INHERIT PASSWORD '$STORE_ORDERED_PASSWORD' IN ROLE documentdb_admin_role;
  END IF;
END \$\$;
ALTER ROLE "$STORE_ORDERED_USER" SET documentdb.alternate_index_handler_name = 'extended_rum';
SQL
  touch "$PG_DIR/.provisioned-$STORE_BUILD_ID"
}

start_documentdb() {
  install_store || return 1
  if ! postgres_ready; then
    err "documentdb: PostgreSQL is not ready on $PG_HOST:$PG_PORT (start it: bash scripts/infra.sh start postgres)"
    return 1
  fi
  mkdir -p "$DOCUMENTDB_DIR"
  # The gateway's release build insists on a TLS certificate (it offers TLS; EnforceSslTcp false keeps plain
  # TCP allowed for the local clients). A self-signed one for localhost, made once.
  if [[ ! -s "$DOCUMENTDB_DIR/cert.pem" ]]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=localhost \
      -keyout "$DOCUMENTDB_DIR/key.pem" -out "$DOCUMENTDB_DIR/cert.pem" >>"$LOGS/install-documentdb.log" 2>&1 ||
      { err "documentdb: could not make the gateway's TLS certificate with openssl"; return 1; }
  fi
  sed -e "s#@PG_PORT@#$PG_PORT#" -e "s#@PORT@#$DOCUMENTDB_PORT#" -e "s#@DIR@#$DOCUMENTDB_DIR#g" \
    "$ROOT/infra/documentdb/SetupConfiguration.json" >"$DOCUMENTDB_DIR/SetupConfiguration.json"
  rotate_log "$DOCUMENTDB_LOG"
  log "documentdb: starting the MongoDB wire gateway on $DOCUMENTDB_HOST:$DOCUMENTDB_PORT..."
  launch documentdb "$DOCUMENTDB_LOG" "$STORE_GATEWAY_BIN" "$DOCUMENTDB_DIR/SetupConfiguration.json"
}

documentdb_ready() { tcp_open "$DOCUMENTDB_HOST" "$DOCUMENTDB_PORT"; }
