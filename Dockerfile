# syntax=docker/dockerfile:1
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces go-smtp with the patched copy in notify/gosmtp (its README says why).
COPY notify/gosmtp ./notify/gosmtp
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/courrier ./cmd/courrier \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/courrier /usr/local/bin/courrier
# The data directory (secrets; keep it in a volume) belongs to the user the
# service runs as, 65532 (nonroot), so the first start can write its keys.
COPY --from=build --chown=65532:65532 --chmod=0700 /out/data /var/lib/courrier
ENV COURRIER_HTTP_ADDR=:8080 COURRIER_SMTP_ADDR=:2525 COURRIER_DATA_DIR=/var/lib/courrier
VOLUME /var/lib/courrier
EXPOSE 8080 2525
USER nonroot
ENTRYPOINT ["courrier"]
CMD ["serve"]
