-- The sandbox OTP outbox held each code and the message carrying it in clear. From now on both are sealed
-- (AES-256-GCM, context otp-outbox:{id}:body and :code); the rows written before cannot be read as sealed, and their
-- codes expired within ten minutes of being sent, so they go.
DELETE FROM "sandbox_otp_outbox";
