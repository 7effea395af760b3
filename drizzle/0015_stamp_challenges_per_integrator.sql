-- A stamp challenge is single-use per integrator (a global key told one integrator that another used a stamp).
ALTER TABLE "used_stamp_challenges" DROP CONSTRAINT "used_stamp_challenges_pkey";--> statement-breakpoint
ALTER TABLE "used_stamp_challenges" ADD CONSTRAINT "used_stamp_challenges_integrator_id_challenge_pk" PRIMARY KEY("integrator_id","challenge");
