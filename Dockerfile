# syntax=docker/dockerfile:1
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/courrier ./cmd/courrier

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/courrier /usr/local/bin/courrier
ENV COURRIER_HTTP_ADDR=:8080 COURRIER_SMTP_ADDR=:2525 COURRIER_DATA_DIR=/var/lib/courrier
EXPOSE 8080 2525
USER nonroot
ENTRYPOINT ["courrier"]
CMD ["serve"]
