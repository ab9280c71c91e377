# A stand-in for the official postgres:15 image, from Debian bookworm's postgresql-15, for machines that
# cannot pull from a registry (deploy/container.sh up uses it as POSTGRES_IMAGE). It honours the same
# POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB and data path as the official image, nothing more.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY --chmod=755 deploy/postgres-debian-entrypoint.sh /usr/local/bin/entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
VOLUME ["/var/lib/postgresql/data"]
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
