# One image for the API and the workers (the compose files pick each service's command; the default is the API).
# Two stages: the first builds Firebreak's wheel from the source, the second installs only that wheel (and its
# dependencies at the versions of requirements/service.txt, hash-checked, from the package index) into a clean
# Python and runs it as an unprivileged user, so the service reads nothing but what the wheel holds: no source tree
# sits next to it. docs/deployment-containers.md says what of this
# was run (scripts/container-check.sh builds and runs it with podman) and what tests/test_containers.py checks.

# The base of both stages. scripts/container-check.sh, on a machine that reaches no container registry, passes
# --build-arg BASE=<a Debian bookworm base with its Python 3.11 made by debootstrap> instead.
ARG BASE=python:3.11-slim

FROM ${BASE} AS build
WORKDIR /src
# .dockerignore keeps the checkout's .venv, caches, tests and docs out of the context
COPY . .
RUN pip wheel --no-cache-dir --disable-pip-version-check --no-deps --wheel-dir /dist . \
    && cp requirements/service.txt /dist/requirements.txt

FROM ${BASE} AS runtime
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    FIREBREAK_DATA_DIR=/var/lib/firebreak
COPY --from=build /dist/ /tmp/dist/
# the locked dependencies first (the versions the suite passed on), then the wheel alone
RUN pip install --no-cache-dir --disable-pip-version-check --require-hashes --no-deps -r /tmp/dist/requirements.txt \
    && pip install --no-cache-dir --disable-pip-version-check --no-deps /tmp/dist/firebreak-*.whl \
    && pip check \
    && rm -rf /tmp/dist \
    && useradd --system --uid 10001 --user-group --no-create-home --home-dir /var/lib/firebreak firebreak \
    && install -d -o firebreak -g firebreak /var/lib/firebreak
# The archive's SQLite file (FIREBREAK_DATA_DIR) lives here; the compose files mount one volume on it for the API
# and the workers alike, so both see the same archive.
WORKDIR /var/lib/firebreak
USER firebreak
EXPOSE 8000
# The API's liveness (/readyz, which also asks Redis, is for a load balancer); the compose files give the workers
# their own check (python -m firebreak.workers.health).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=5 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["firebreak", "api", "--host", "0.0.0.0", "--port", "8000"]
