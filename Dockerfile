# One image for the API and the workers (docker-compose.yml picks the command).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY matches ./matches
COPY api ./api
COPY workers ./workers
COPY web ./web
RUN pip install --no-cache-dir .
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
CMD ["uvicorn", "firebreak.api.app:create_app", "--factory", "--host", "0.0.0.0", "--port", "8000", "--no-access-log"]
