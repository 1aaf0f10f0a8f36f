ALTER TABLE `sessions` ADD `credential_epoch` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `credential_epoch` integer DEFAULT 0 NOT NULL;