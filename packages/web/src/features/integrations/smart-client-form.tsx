import {
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import {
  SMART_SYSTEM_SCOPES,
  SmartTexts,
  type SmartJwks,
  Validation,
  formSchema,
  requiredText,
  type CreateSmartClientBody,
  type Organization,
  type SmartSystemScope,
} from '@rpm/contracts';
import { Controller } from 'react-hook-form';
import { errorMessage } from '../../api/errors.ts';
import { useCreateSmartClient } from '../../api/smart-clients/create-smart-client.ts';
import { controlledFieldProps } from '../../components/form/text-field-props.ts';
import { useSchemaForm } from '../../components/form/use-schema-form.ts';
import { useSnackbar } from '../../lib/toast/toast.ts';
import { useOnlyOrganization } from './use-only-organization.ts';

interface NewClient {
  name: string;
  organization_id: string;
  key_source: 'url' | 'pasted';
  jwks_url: string;
  jwks: string;
  scopes: SmartSystemScope[];
}

/** The pasted text as a JWKS, or null when it is not JSON of that shape. */
function parseJwks(text: string): SmartJwks | null {
  try {
    const value = JSON.parse(text) as Partial<SmartJwks> | null;
    return value && Array.isArray(value.keys) && value.keys.length > 0 ? (value as SmartJwks) : null;
  } catch {
    return null;
  }
}

// The server checks the keys themselves (public only, RS384/ES384) and the URL (https); the form
// checks what it can see: a missing field, text that is not a JWKS, no scope chosen.
const NewClientForm = formSchema({
  name: requiredText(''),
  organization_id: requiredText(Validation.organizationRequired),
});

/** Registers an EHR system as a SMART Backend Services client: its public keys and allowed scopes. */
export function SmartClientForm({ organizations }: { organizations: Organization[] }) {
  const { enqueueSnackbar } = useSnackbar();
  const create = useCreateSmartClient();
  const { control, handleSubmit, reset, watch, getValues, setValue, setError } = useSchemaForm<NewClient>(
    NewClientForm,
    {
      mode: 'onSubmit',
      reValidateMode: 'onChange',
      defaultValues: { name: '', organization_id: '', key_source: 'url', jwks_url: '', jwks: '', scopes: [] },
    },
  );
  const keySource = watch('key_source');
  useOnlyOrganization(organizations, getValues, setValue);

  const submit = handleSubmit((v) => {
    const jwks = v.key_source === 'pasted' ? parseJwks(v.jwks) : null;
    let valid = true;
    if (v.key_source === 'pasted' && !jwks) {
      setError('jwks', { message: SmartTexts.jwksInvalidJson });
      valid = false;
    }
    if (v.key_source === 'url' && !v.jwks_url.trim()) {
      setError('jwks_url', { message: SmartTexts.jwksUrlRequired });
      valid = false;
    }
    if (v.scopes.length === 0) {
      setError('scopes', { message: SmartTexts.scopesRequired });
      valid = false;
    }
    if (!valid) return;
    const body: CreateSmartClientBody = {
      name: v.name.trim(),
      organization_id: Number(v.organization_id),
      scopes: v.scopes,
      ...(jwks ? { jwks } : { jwks_url: v.jwks_url.trim() }),
    };
    create.mutate(body, {
      onSuccess: (c) => {
        reset({ ...getValues(), name: '', jwks_url: '', jwks: '', scopes: [] });
        enqueueSnackbar(SmartTexts.created(c.name), { variant: 'success' });
      },
      onError: (err) => enqueueSnackbar(errorMessage(err, SmartTexts.register), { variant: 'error' }),
    });
  });

  return (
    <Paper component="form" noValidate onSubmit={submit} sx={{ p: 2, mb: 2 }} aria-label={SmartTexts.register}>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Controller
            name="name"
            control={control}
            render={({ field, fieldState }) => (
              <TextField {...field} label={SmartTexts.name} size="small" required error={!!fieldState.error} />
            )}
          />
          <Controller
            name="organization_id"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                select
                required
                label={SmartTexts.organization}
                size="small"
                sx={{ minWidth: 180 }}
                {...controlledFieldProps(field, fieldState)}
              >
                {organizations.map((o) => (
                  <MenuItem key={o.id} value={String(o.id)}>
                    {o.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        </Stack>
        <Controller
          name="key_source"
          control={control}
          render={({ field }) => (
            <FormControl>
              <FormLabel id="smart-key-source">{SmartTexts.keySource}</FormLabel>
              <RadioGroup row aria-labelledby="smart-key-source" {...field}>
                <FormControlLabel value="url" control={<Radio />} label={SmartTexts.keyUrl} />
                <FormControlLabel value="pasted" control={<Radio />} label={SmartTexts.keyPasted} />
              </RadioGroup>
            </FormControl>
          )}
        />
        {keySource === 'url' ? (
          <Controller
            name="jwks_url"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                label={SmartTexts.jwksUrl}
                size="small"
                type="url"
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
              />
            )}
          />
        ) : (
          <Controller
            name="jwks"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                label={SmartTexts.jwks}
                multiline
                minRows={4}
                size="small"
                error={!!fieldState.error}
                helperText={fieldState.error?.message}
                slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
              />
            )}
          />
        )}
        <Controller
          name="scopes"
          control={control}
          render={({ field, fieldState }) => (
            <FormControl error={!!fieldState.error} component="fieldset">
              <FormLabel component="legend">{SmartTexts.scopes}</FormLabel>
              <FormGroup row>
                {SMART_SYSTEM_SCOPES.map((scope) => (
                  <FormControlLabel
                    key={scope}
                    label={`${SmartTexts.scopeLabels[scope]} (${scope})`}
                    control={
                      <Checkbox
                        checked={field.value.includes(scope)}
                        onChange={(e) =>
                          field.onChange(
                            e.target.checked ? [...field.value, scope] : field.value.filter((s) => s !== scope),
                          )
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
            </FormControl>
          )}
        />
        <div>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {SmartTexts.register}
          </Button>
        </div>
      </Stack>
    </Paper>
  );
}
