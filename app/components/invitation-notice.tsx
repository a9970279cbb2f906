import { useTranslation } from 'react-i18next'
import { type InvitationPreview } from '#app/.server/invitation.ts'
import { IsolatedText } from './ui/isolated-text.tsx'
import * as styles from './invitation-notice.css.ts'

/** "You are invited to join …" above the sign-up and sign-in forms, or why the invitation cannot be used. */
export function InvitationNotice({ invitation }: { invitation: { preview: InvitationPreview | null; problem: string | null } | null }) {
	const { t } = useTranslation()
	if (!invitation) return null
	if (invitation.problem) {
		return (
			<div role="alert" className={styles.notice} data-tone="error">
				<strong>{t('invitations.failed')}</strong>
				<p>{invitation.problem}</p>
			</div>
		)
	}
	if (!invitation.preview) return null
	return (
		<div role="status" className={styles.notice}>
			<IsolatedText
				i18nKey="invitations.invited"
				names={{ workspace: invitation.preview.workspaceName }}
				values={{ role: t(`roles.${invitation.preview.role}`) }}
			/>
		</div>
	)
}
