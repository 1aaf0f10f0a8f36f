CREATE TABLE `builds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`build_id` text NOT NULL,
	`name` text,
	`messages` text NOT NULL,
	`key_count` integer NOT NULL,
	`registered_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `builds_project_build_uq` ON `builds` (`project_id`,`build_id`);--> statement-breakpoint
CREATE INDEX `builds_project_registered_idx` ON `builds` (`project_id`,`registered_at`);--> statement-breakpoint
CREATE TABLE `signing_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`n` integer NOT NULL,
	`key_id` text NOT NULL,
	`public_key` text NOT NULL,
	`secret_key` text NOT NULL,
	`signature` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signing_keys_project_n_uq` ON `signing_keys` (`project_id`,`n`);--> statement-breakpoint
ALTER TABLE `releases` ADD `manifest` text;--> statement-breakpoint
ALTER TABLE `releases` ADD `manifest_sequence` integer;--> statement-breakpoint
ALTER TABLE `releases` ADD `signing_key` integer;